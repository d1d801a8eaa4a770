// Plain JavaScript on purpose: the proof-of-work worker threads import this file directly, so they start
// without a TypeScript loader in every runtime (tsx, vitest, cluster processes). Types: pow-search.d.mts.
import { hash } from 'node:crypto';

/**
 * True when the hex digest has at least `difficulty` leading zero bits: difficulty 16 means the first four hex
 * digits are 0, so about 65,536 attempts are needed on average.
 */
export function meetsDifficulty(hex, difficulty) {
  const fullNibbles = difficulty >> 2;
  for (let i = 0; i < fullNibbles; i++) if (hex.charCodeAt(i) !== 48) return false;
  const rest = difficulty & 3;
  if (rest === 0) return true;
  return Number.parseInt(hex[fullNibbles], 16) < 1 << (4 - rest);
}

/**
 * Hashes `prefix + nonce` (nonce in decimal) for every nonce in [start, end) until one meets the difficulty;
 * returns it with its hash, or undefined. `crypto.hash` with a string in and hex out is the fastest SHA-256
 * call Node offers for short inputs.
 */
export function searchRange(prefix, difficulty, start, end) {
  for (let nonce = start; nonce < end; nonce++) {
    const digest = hash('sha256', prefix + nonce);
    if (meetsDifficulty(digest, difficulty)) return { nonce, hash: digest };
  }
  return undefined;
}
