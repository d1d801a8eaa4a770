import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BadKey,
  canonicalJson,
  keyFingerprint,
  parsePublicKey,
  subjectStatement,
  verifyEd25519,
} from './signature-statement.js';

describe('signature statements', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x as string;

  it('canonicalises with sorted keys and no white space (RFC 8785)', () => {
    const s = subjectStatement('certificate', 'plt_1', {
      index: 3,
      leafHash: 'ab',
      subject: 'evt.plants.plant.registered',
      eventId: 'evt_1',
      occurredAt: '2026-01-01T00:00:00.000Z',
      data: { plantId: 'plt_1', commonName: 'Fig' },
    });
    expect(canonicalJson(s)).toBe(
      '{"audit":{"index":3,"leafHash":"ab"},"event":{"data":{"commonName":"Fig","plantId":"plt_1"},' +
        '"eventId":"evt_1","occurredAt":"2026-01-01T00:00:00.000Z","subject":"evt.plants.plant.registered"},' +
        '"id":"plt_1","type":"certificate"}',
    );
  });

  it('reads raw base64url and PEM keys alike, and refuses other keys', () => {
    expect(parsePublicKey(raw).raw).toBe(raw);
    expect(parsePublicKey(publicKey.export({ format: 'pem', type: 'spki' }).toString()).raw).toBe(raw);
    expect(keyFingerprint(raw)).toMatch(/^[0-9a-f]{64}$/);
    expect(() => parsePublicKey('A'.repeat(42))).toThrow(BadKey);
    const x25519 = generateKeyPairSync('x25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(() => parsePublicKey(x25519)).toThrow(BadKey);
  });

  it('verifies the signature of the exact text only', () => {
    const text = canonicalJson({ b: 1, a: 'é' });
    const sig = sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64url');
    const { key } = parsePublicKey(raw);
    expect(verifyEd25519(key, text, sig)).toBe(true);
    expect(verifyEd25519(key, `${text} `, sig)).toBe(false);
    expect(verifyEd25519(key, text, sig.slice(0, 40))).toBe(false);
  });
});
