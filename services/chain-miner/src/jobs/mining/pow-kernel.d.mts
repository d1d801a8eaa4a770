/**
 * A search with the same results as `searchRange` in pow-search.mjs, run by a WebAssembly kernel instance of
 * its own (one per thread).
 */
export declare function createKernelSearch(): (
  prefix: string,
  difficulty: number,
  start: number,
  end: number,
) => { nonce: number; hash: string } | undefined;
