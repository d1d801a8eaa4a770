// Plain JavaScript for the same reason as ../../domain/pow-search.mjs: the mining threads import it without a loader.
// The search runs inside a WebAssembly kernel (pow-kernel.wasm, built from ../../../assembly/pow-kernel.ts), one
// call per run of nonces with the same digit count: the per-nonce cost is one SHA-256 compression over the
// midstate, not a JavaScript→C++ call, a string and a hex digest. See docs/adr/065-pow-wasm-kernel.md.

import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { meetsDifficulty, searchRange as plainSearchRange } from '../../domain/pow-search.mjs';

const WASM_URL = new URL('./pow-kernel.wasm', import.meta.url);
/** Longest decimal nonce the kernel is given: below 2^53, where numbers stop being exact. */
const MAX_DIGITS = 16;

let compiled;

/** The compiled module, read and compiled once per thread. */
function kernelModule() {
  compiled ??= new WebAssembly.Module(readFileSync(WASM_URL));
  return compiled;
}

/**
 * A search over nonces with the same results as pow-search.mjs's `searchRange` (the first nonce in [start,
 * end) whose SHA-256(prefix + decimal nonce) meets the difficulty), run by one kernel instance. An instance
 * is not shared between threads: create one per thread.
 */
export function createKernelSearch() {
  const { exports } = new WebAssembly.Instance(kernelModule(), {});
  const input = exports.inputOffset();
  const capacity = exports.inputCapacity();
  const memory = Buffer.from(exports.memory.buffer);
  let lastPrefix;
  let prefixBytes = 0;

  return function searchRange(prefix, difficulty, start, end) {
    if (prefix !== lastPrefix) {
      prefixBytes = Buffer.byteLength(prefix, 'utf8');
      if (prefixBytes + MAX_DIGITS > capacity) lastPrefix = undefined;
      else {
        memory.write(prefix, input, 'utf8');
        lastPrefix = prefix;
      }
    }
    // A prefix too long for the kernel's buffer, or nonces past exact integers: the plain loop.
    if (lastPrefix === undefined || end > Number.MAX_SAFE_INTEGER) {
      return plainSearchRange(prefix, difficulty, start, end);
    }
    let from = start;
    while (from < end) {
      // One call per digit count: the kernel counts in decimal within a fixed width.
      const digits = String(from);
      const to = Math.min(end, 10 ** digits.length);
      memory.write(digits, input + prefixBytes, 'latin1');
      const found = exports.search(prefixBytes, prefixBytes + digits.length, to - from, difficulty);
      if (found >= 0) {
        const nonce = from + found;
        const digest = hash('sha256', prefix + nonce);
        // The kernel only points at the nonce; the digest handed on is node:crypto's own.
        if (!meetsDifficulty(digest, difficulty)) throw new Error(`proof-of-work kernel disagrees at nonce ${nonce}`);
        return { nonce, hash: digest };
      }
      from = to;
    }
    return undefined;
  };
}
