import { describe, expect, it } from 'vitest';
import { csrfTokenFor, csrfTokenMatches, isStateChanging } from './csrf.js';
import { deriveKey } from './secrets.js';

const key = deriveKey('a-server-secret-of-at-least-32-chars', 'csrf');

describe('CSRF tokens', () => {
  it('are bound to the session: same session same token, another session another token', () => {
    const a = csrfTokenFor(key, 'ses_A');
    expect(csrfTokenFor(key, 'ses_A')).toBe(a);
    expect(csrfTokenFor(key, 'ses_B')).not.toBe(a);
    expect(csrfTokenFor(deriveKey('another-server-secret-of-32-chars!!', 'csrf'), 'ses_A')).not.toBe(a);
  });

  it('match only the exact token of the session', () => {
    const a = csrfTokenFor(key, 'ses_A');
    expect(csrfTokenMatches(key, 'ses_A', a)).toBe(true);
    expect(csrfTokenMatches(key, 'ses_B', a)).toBe(false);
    expect(csrfTokenMatches(key, 'ses_A', `${a}x`)).toBe(false);
    expect(csrfTokenMatches(key, 'ses_A', undefined)).toBe(false);
    expect(csrfTokenMatches(key, 'ses_A', '')).toBe(false);
  });

  it('are needed on every method but GET, HEAD and OPTIONS', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'post'].map(isStateChanging)).toEqual([true, true, true, true, true]);
    expect(['GET', 'HEAD', 'OPTIONS'].map(isStateChanging)).toEqual([false, false, false]);
  });
});
