/**
 * V8 flags of every Rootline process that `pnpm start` and `pnpm start:cluster` run (and the Docker image, which
 * sets them in NODE_OPTIONS). A semi-space of at most 2 MiB: V8's default lets the young generation grow to two
 * 16 MiB semi-spaces, which a process that has served a few hundred requests keeps committed; capped, each
 * process holds 15–25 MiB less (docs/perf/startup.md). The root package.json writes the same flags on its
 * `start` and `start:cluster` lines, which run before anything is compiled (a test keeps them equal).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];
