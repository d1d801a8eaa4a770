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

/** The V8 flags of one service process in cluster mode. */
export function serviceNodeFlags(service: string): readonly string[] {
  const mib = SEMI_SPACE_MIB[service];
  return mib === undefined ? NODE_FLAGS : [`--max-semi-space-size=${mib}`];
}
