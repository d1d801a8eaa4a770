/**
 * One loop per peer (a witness asked, a peer mirrored): `work` runs for a peer, then again `pollMs` after it ended,
 * whatever it answered; a failure is handed to `failed` while the loops run. `stop` cuts requests under way through
 * `signal` (a peer that does not answer must not hold up a shutdown) and waits for the runs to end.
 */
export function createPeerLoops<P>(o: {
  peers: readonly P[];
  pollMs: number;
  work: (peer: P) => Promise<unknown>;
  failed: (peer: P, err: Error) => void;
}) {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  let stopped = true;
  let stopping = new AbortController();

  function loop(peer: P) {
    if (stopped) return;
    const run = o
      .work(peer)
      .catch((err: Error) => {
        if (!stopped) o.failed(peer, err);
      })
      .finally(() => {
        running.delete(run);
        if (stopped) return;
        const t = setTimeout(() => {
          timers.delete(t);
          loop(peer);
        }, o.pollMs);
        timers.add(t);
      });
    running.add(run);
  }

  return {
    /** Aborted once the loops stop. */
    get signal(): AbortSignal {
      return stopping.signal;
    },
    start() {
      if (o.peers.length === 0) return;
      stopped = false;
      stopping = new AbortController();
      for (const peer of o.peers) loop(peer);
    },
    async stop() {
      stopped = true;
      stopping.abort();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}
