import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchRange } from '../../domain/pow-search.mjs';
import { createKernelSearch } from './pow-kernel.mjs';

const kernelSearch = createKernelSearch();
const SERVICE_DIR = fileURLToPath(new URL('../../..', import.meta.url));

const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
/** A block header before its nonce, as headerPrefix writes it. */
const realisticPrefix = fc
  .record({
    index: fc.nat({ max: 10_000_000 }),
    time: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
    previousHash: hex64,
    merkleRoot: hex64,
    difficulty: fc.nat({ max: 64 }),
  })
  .map((h) => `${h.index}|${h.time.toISOString()}|${h.previousHash}|${h.merkleRoot}|${h.difficulty}|`);
/** Any text, multi-byte characters included, at lengths around one and two 64-byte blocks. */
const anyPrefix = fc.string({ unit: 'binary', maxLength: 140 });
/** Starts anywhere, and often just below a power of ten, where the nonce gains a digit. */
const startNonce = fc.oneof(
  fc.nat({ max: 1_000_000 }),
  fc.tuple(fc.integer({ min: 1, max: 15 }), fc.nat({ max: 3000 })).map(([k, back]) => Math.max(0, 10 ** k - back)),
  fc.integer({ min: 0, max: 2 ** 52 }),
);

describe('proof-of-work kernel', () => {
  it('finds the same first nonce as the plain crypto.hash loop, for random headers and difficulties', () => {
    fc.assert(
      fc.property(
        fc.oneof(realisticPrefix, anyPrefix),
        fc.nat({ max: 12 }),
        startNonce,
        fc.integer({ min: 1, max: 12_000 }),
        (prefix, difficulty, start, count) => {
          expect(kernelSearch(prefix, difficulty, start, start + count)).toEqual(
            searchRange(prefix, difficulty, start, start + count),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds the same first nonce across digit-count changes and block boundaries', () => {
    // Tails of 0 to 63 bytes after the full blocks: the nonce lands in one tail block or straddles into two.
    for (let length = 100; length < 200; length++) {
      const prefix = 'p'.repeat(length);
      for (const start of [0, 9_990, 999_999_990]) {
        expect(kernelSearch(prefix, 6, start, start + 400)).toEqual(searchRange(prefix, 6, start, start + 400));
      }
    }
  });

  it('finds nothing where nothing qualifies, above 32 bits of difficulty too', () => {
    expect(kernelSearch('x|', 40, 0, 200_000)).toBeUndefined();
    expect(kernelSearch('x|', 256, 0, 1000)).toBeUndefined();
    expect(kernelSearch('x|', 0, 77, 78)).toEqual(searchRange('x|', 0, 77, 78));
  });

  it('is built from its source: the committed binary equals a fresh compile of assembly/pow-kernel.ts', async () => {
    let built: Uint8Array | undefined;
    const { error, stderr } = await asc.main(
      ['--config', 'asconfig.json', '--target', 'release', '--baseDir', SERVICE_DIR],
      {
        writeFile: (name, contents) => {
          if (name.endsWith('.wasm')) built = contents as Uint8Array;
        },
      },
    );
    expect(error, stderr.toString()).toBeNull();
    // If this fails after editing the source: pnpm --filter @rootline/chain-miner build:kernel, and commit.
    expect(Buffer.from(built!).equals(readFileSync(new URL('./pow-kernel.wasm', import.meta.url)))).toBe(true);
  });
});
