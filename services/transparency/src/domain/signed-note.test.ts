import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkpointText, noteKeyId, signNote, validKeyName, verifierKey } from './signed-note.js';

// The example key and note published with the Go reference implementation of signed notes
// (golang.org/x/mod/sumdb/note): a private key `PRIVATE+KEY+<name>+<id>+base64(0x01 ‖ seed)`, its verifier key and
// the note it signs. Ed25519 is deterministic, so signing the text with the seed must give the published line.
const SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const SIGNED = `${TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

function seedKey(skey: string) {
  // The fields are PRIVATE, KEY, name, id, key material (whose base64 may itself hold '+').
  const seed = Buffer.from(skey.split('+').slice(4).join('+'), 'base64').subarray(1);
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410).
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

describe('signed notes (c2sp.org/signed-note)', () => {
  const { privateKey, publicKey } = seedKey(SKEY);

  it('gives the published key id and verifier key of the reference example', () => {
    expect(noteKeyId('PeterNeumann', publicKey).toString('hex')).toBe('c74f20a3');
    expect(verifierKey('PeterNeumann', publicKey)).toBe(VKEY);
  });

  it('signs the reference text into the published note, byte for byte', () => {
    expect(signNote(TEXT, 'PeterNeumann', privateKey, publicKey)).toBe(SIGNED);
  });

  it('refuses a text without its final newline and names with spaces or plus signs', () => {
    expect(() => signNote('no newline', 'PeterNeumann', privateKey, publicKey)).toThrow();
    expect(validKeyName('rootline.example/audit')).toBe(true);
    expect(validKeyName('a b')).toBe(false);
    expect(validKeyName('a+b')).toBe(false);
    expect(validKeyName('')).toBe(false);
  });

  it('writes a checkpoint as origin, decimal size and base64 root (c2sp.org/tlog-checkpoint)', () => {
    const root = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(checkpointText('example.com/log', 0, root)).toBe(
      'example.com/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n',
    );
  });
});
