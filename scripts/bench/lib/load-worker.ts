// Runs autocannon in a process of its own, so the load generator shares no event loop (and no CPU
// accounting) with the servers under test. Receives LoadOptions over IPC, answers with LoadMessages.
import autocannon from 'autocannon';
import type { GeneratedRequest, LoadMessage, LoadOptions, LoadResult } from './load-protocol.js';

function send(message: LoadMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) throw new Error('the load worker needs an IPC channel');
    process.send(message, () => resolve());
  });
}

/** Requests made so far by `opts.generate`, over the warm-up and the measured run. */
let generated = 0;

/**
 * The requests as autocannon sends them: `opts.requests` (or GETs of `opts.paths`), each connection sending them in
 * turn; with `opts.generate`, one request per connection, made again before each send by the generator.
 */
async function requestsOf(opts: LoadOptions): Promise<autocannon.Request[]> {
  const gen = opts.generate;
  if (!gen) return opts.requests ?? opts.paths.map((path) => ({ method: 'GET', path }));
  const make = (await import(gen.module))[gen.name] as (args: unknown, n: number) => GeneratedRequest;
  if (typeof make !== 'function') throw new Error(`${gen.module} exports no function ${gen.name}`);
  return [{ setupRequest: (req) => ({ ...req, ...make(gen.args, generated++) }) }];
}

/** One autocannon run; `onStart` is called when the load begins (after the request buffers are built). */
function fire(
  opts: LoadOptions,
  requests: autocannon.Request[],
  durationSeconds: number,
  onStart?: () => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const tracker = autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        pipelining: 1,
        duration: durationSeconds,
        timeout: 10,
        headers: opts.headers,
        requests,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (onStart) tracker.once('start', onStart);
  });
}

function summarise(r: autocannon.Result): LoadResult {
  return {
    durationSeconds: r.duration,
    requests: r.requests.total,
    requestsPerSecond: r.requests.average,
    latency: {
      mean: r.latency.average,
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      max: r.latency.max,
    },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

process.once('message', (opts: LoadOptions) => {
  void (async () => {
    try {
      const requests = await requestsOf(opts);
      if (opts.warmupSeconds > 0) await fire(opts, requests, opts.warmupSeconds);
      const result = await fire(opts, requests, opts.durationSeconds, () => void send({ type: 'measuring' }));
      await send({ type: 'result', result: summarise(result) });
    } catch (err) {
      await send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
    process.disconnect?.();
  })();
});
