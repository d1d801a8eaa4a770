// One proof-of-work thread. Plain JavaScript so it needs no TypeScript loader (see ../../domain/pow-search.mjs).
// It searches the range it is given in slices, and between slices checks the shared generation number: when
// the pool has moved on (block found elsewhere, new header, shutdown) it stops within one slice.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { searchRange as plainSearchRange } from '../../domain/pow-search.mjs';
import { createKernelSearch } from './pow-kernel.mjs';

/** Nonces per slice: about a millisecond of hashing with the kernel, so an abort takes effect at once. */
const SLICE = 8192;

/**
 * This thread's own kernel instance (WebAssembly memory is per instance, not shared); the plain loop, with the
 * same results, where the CPU cannot run WebAssembly SIMD.
 */
const searchRange = (() => {
  try {
    return createKernelSearch();
  } catch {
    return plainSearchRange;
  }
})();

const { control, counters, slot, nice } = workerData;

// On Linux a thread's nice value is its own: this lowers the priority of this mining thread only, so that on
// a busy machine request handling (main threads, the database) goes first and mining takes the idle time.
if (nice > 0) {
  try {
    setPriority(nice);
  } catch {
    // Not permitted here: mine at normal priority.
  }
}

parentPort.on('message', ({ generation, prefix, difficulty, start, end }) => {
  for (let from = start; from < end; from += SLICE) {
    if (Atomics.load(control, 0) !== generation) {
      parentPort.postMessage({ generation, status: 'aborted' });
      return;
    }
    const to = Math.min(from + SLICE, end);
    const found = searchRange(prefix, difficulty, from, to);
    Atomics.add(counters, slot, BigInt(found ? found.nonce - from + 1 : to - from));
    if (found) {
      parentPort.postMessage({ generation, status: 'found', nonce: found.nonce, hash: found.hash });
      return;
    }
  }
  parentPort.postMessage({ generation, status: 'exhausted' });
});
