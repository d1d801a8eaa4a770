import { describe, expect, it } from 'vitest';
import { open, seal } from './sealed.js';
import { deriveKey } from './secrets.js';

const key = deriveKey('a-server-secret-of-at-least-32-chars', 'oauth-state');
const now = 1_700_000_000_000;

describe('sealed cookie values', () => {
  it('open to what was sealed before they expire, and do not show it', () => {
    const sealed = seal(key, { state: 's1', verifier: 'secret-verifier' }, now + 60_000);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('secret-verifier');
    expect(open<{ state: string; verifier: string }>(key, sealed, now)).toMatchObject({
      state: 's1',
      verifier: 'secret-verifier',
    });
  });

  it('do not open once expired, with another key, or when altered', () => {
    const sealed = seal(key, { state: 's1' }, now + 60_000);
    expect(open(key, sealed, now + 61_000)).toBeNull();
    expect(open(deriveKey('another-server-secret-of-32-chars!!', 'oauth-state'), sealed, now)).toBeNull();
    const raw = Buffer.from(sealed, 'base64url');
    raw[20] = (raw[20] ?? 0) ^ 1;
    expect(open(key, raw.toString('base64url'), now)).toBeNull();
    expect(open(key, sealed.slice(0, -2), now)).toBeNull();
    expect(open(key, undefined, now)).toBeNull();
    expect(open(key, 'garbage', now)).toBeNull();
  });
});
