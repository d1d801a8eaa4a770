/** What the load worker is asked to do. */
export interface LoadOptions {
  /** Origin of the server, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Request paths (GET); each connection sends them in turn. */
  paths: string[];
  /** Full requests instead of `paths`, e.g. POSTs with bodies; each connection sends them in turn. */
  requests?: { method: string; path: string; body?: string }[];
  /**
   * Requests made as they are sent instead of `requests`: the worker imports `module` (a path) and calls its export
   * `name` with `args` and the request's number (0, 1, 2…, warm-up included, never repeated) for each request,
   * whichever connection sends it; for bodies that must all differ, e.g. new readings.
   */
  generate?: { module: string; name: string; args: unknown };
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** Load sent first and not counted, so that connections, caches and JIT are warm. */
  warmupSeconds: number;
}

/** A request made by a `generate` module. */
export interface GeneratedRequest {
  method: string;
  path: string;
  body?: string;
}

/** The export a `generate` module offers: the n-th request sent. */
export type RequestGenerator = (args: never, n: number) => GeneratedRequest;

/** What a measured run gave. Latencies in milliseconds. */
export interface LoadResult {
  durationSeconds: number;
  /** Completed requests, any status. */
  requests: number;
  requestsPerSecond: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

/** Messages from the load worker to its parent. */
export type LoadMessage =
  | { type: 'measuring' }
  | { type: 'result'; result: LoadResult }
  | { type: 'failed'; message: string };
