import { describe, expect, it } from 'vitest';
import { BadSignature, noteVerifier, openNote, parseCheckpoint, parseVerifierKey } from './note.js';

// The example verifier key and signed note published with the Go reference implementation of signed notes.
const VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const NOTE = `${TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

describe('signed notes, from c2sp.org/signed-note', () => {
  const peter = parseVerifierKey(VKEY);

  it('opens the published note with the published verifier key', () => {
    expect(openNote(NOTE, [peter]).text).toBe(TEXT);
  });

  it('refuses a changed text, a changed signature and a note with no known key', () => {
    expect(() => openNote(NOTE.replace('problem,', 'problem;'), [peter])).toThrow(BadSignature);
    expect(() => openNote(NOTE.replace('x08go', 'x08gp'), [peter])).toThrow();
    const other = noteVerifier('Peter', peter.raw.toString('base64'));
    expect(() => openNote(NOTE, [other])).toThrow(/no signature by a known key/);
  });

  it('refuses a verifier key whose id does not match its key', () => {
    expect(() => parseVerifierKey(VKEY.replace('c74f20a3', 'c74f20a4'))).toThrow(/does not match/);
  });

  it('parses a checkpoint and refuses a malformed one', () => {
    const root = Buffer.alloc(32, 7).toString('base64');
    expect(parseCheckpoint(`example.com/log\n12\n${root}\nextra\n`)).toEqual({
      origin: 'example.com/log',
      size: 12,
      rootHash: Buffer.alloc(32, 7).toString('hex'),
      extensions: ['extra'],
    });
    expect(() => parseCheckpoint(`example.com/log\n012\n${root}\n`)).toThrow();
    expect(() => parseCheckpoint(`example.com/log\n12\nAAAA\n`)).toThrow();
  });
});
