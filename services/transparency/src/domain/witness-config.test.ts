import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { COSIGNATURE_V1, ED25519, vkeyOf } from './cosignature.js';
import { parseFollowedLogs, parseWitnessPeers } from './witness-config.js';

describe('witness settings', () => {
  const a = generateKeyPairSync('ed25519').publicKey;
  const b = generateKeyPairSync('ed25519').publicKey;

  it('reads followed logs by origin, the key name when no origin is given, several keys per log', () => {
    const logs = parseFollowedLogs(
      ` ${vkeyOf('log.test/a', ED25519, a)}, sum.test/tree ${vkeyOf('sum.test', ED25519, b)},` +
        `sum.test/tree ${vkeyOf('sum.test', ED25519, a)}`,
    );
    expect([...logs.keys()]).toEqual(['log.test/a', 'sum.test/tree']);
    expect(logs.get('sum.test/tree')).toHaveLength(2);
    expect(parseFollowedLogs(undefined).size).toBe(0);
  });

  it('refuses a cosigner key where a log key belongs, and the reverse, and a URL that is not http', () => {
    expect(() => parseFollowedLogs(vkeyOf('w.test', COSIGNATURE_V1, a))).toThrow(/type 0x01/);
    expect(() => parseWitnessPeers(`${vkeyOf('w.test', ED25519, a)} https://w.test`)).toThrow(/type 0x04/);
    expect(() => parseWitnessPeers(`${vkeyOf('w.test', COSIGNATURE_V1, a)} ftp://w.test`)).toThrow(/http/);
    expect(() => parseWitnessPeers(vkeyOf('w.test', COSIGNATURE_V1, a))).toThrow(/<URL>/);
    const [peer] = parseWitnessPeers(`${vkeyOf('w.test', COSIGNATURE_V1, a)} https://w.test/api/transparency/witness/`);
    expect(peer!.url).toBe('https://w.test/api/transparency/witness');
    expect(peer!.key.name).toBe('w.test');
  });
});
