/**
 * V8 flags of every Rootline process that `pnpm start` and `pnpm start:cluster` run (and the Docker image, which
 * sets them in NODE_OPTIONS). A semi-space of at most 2 MiB: V8's default lets the young generation grow to two
 * 16 MiB semi-spaces, which a process that has served a few hundred requests keeps committed; capped, each
 * process holds 15–25 MiB less (docs/perf/startup.md). The root package.json writes the same flags on its
 * `start` and `start:cluster` lines, which run before anything is compiled (a test keeps them equal).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

/**
 * Semi-space (MiB) of the cluster processes that serve the read path under concurrency. A request in flight keeps
 * what it allocated alive across its awaits; with 2 MiB semi-spaces and dozens of requests in flight, every
 * scavenge finds most of the young generation alive, copies it and promotes it early, and garbage collection took
 * 28 % of the gateway's CPU in `pnpm bench get-plant` (9 % with V8's default). These processes keep a larger young
 * generation; the Kubernetes manifests set the same in their NODE_OPTIONS (a test keeps them equal).
 */
export const SEMI_SPACE_MIB: Readonly<Record<string, number>> = { gateway: 8, plants: 8 };

/**
 * Added for the service processes that keep the small young generation (every one but the read path's): one V8
 * worker thread instead of four. Each of V8's worker threads allocates with malloc for its garbage-collection and
 * compilation tasks, and glibc gives each thread an arena of its own that keeps its peak: one thread held each
 * small service 4–6 MiB lower after the startup walkthrough, and the registration benchmark's consumers spent the
 * same share of the machine per registration (ADR 172). The Docker image sets the same in NODE_OPTIONS (a test
 * keeps them equal).
 */
export const SMALL_SERVICE_FLAGS: readonly string[] = ['--v8-pool-size=1'];

/** The V8 flags of one service process in cluster mode. */
export function serviceNodeFlags(service: string): readonly string[] {
  const mib = SEMI_SPACE_MIB[service];
  return mib === undefined ? [...NODE_FLAGS, ...SMALL_SERVICE_FLAGS] : [`--max-semi-space-size=${mib}`];
}
