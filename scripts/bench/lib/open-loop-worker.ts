// An open-loop load generator in a process of its own: requests arrive on a fixed schedule (rate per second)
// whether or not earlier ones have been answered, as a population of independent clients behaves. Latency is
// measured from each request's scheduled arrival, so a slow server cannot hide its queue by slowing the load
// (no coordinated omission). Receives OpenLoopOptions over IPC, answers with OpenLoopMessages.
import { Agent, request } from 'node:http';
import type { OpenLoopMessage, OpenLoopOptions, OpenLoopStep, OpenLoopStepResult } from './open-loop-protocol.js';

function send(message: OpenLoopMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) throw new Error('the open-loop worker needs an IPC channel');
    process.send(message, () => resolve());
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** One request; resolves to its status code, or 0 for a connection error or a timeout. */
function fire(agent: Agent, url: URL, opts: OpenLoopOptions, i: number): Promise<number> {
  const r = opts.requests[i % opts.requests.length]!;
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: r.method,
        path: r.path,
        headers: r.body ? { ...opts.headers, 'content-length': Buffer.byteLength(r.body) } : opts.headers,
      },
      (res) => {
        res.resume();
        res.once('end', () => done(res.statusCode ?? 0));
        res.once('error', () => done(0));
      },
    );
    // A deadline for the whole exchange, from the moment it is sent (not an idle-socket timeout).
    const deadline = setTimeout(() => req.destroy(new Error('timeout')), opts.timeoutSeconds * 1000);
    const done = (status: number) => {
      clearTimeout(deadline);
      resolve(status);
    };
    req.once('error', () => done(0));
    req.end(r.body);
  });
}

async function runStep(agent: Agent, url: URL, opts: OpenLoopOptions, step: OpenLoopStep, first: number) {
  const latencies: number[] = [];
  const lags: number[] = [];
  const statusCodes: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  const total = Math.round(step.rate * step.seconds);
  const start = performance.now();
  let lastAnswer = start;
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    // Every arrival whose time has come, each timed from its own scheduled instant.
    const due = Math.min(total, Math.floor(((now - start) / 1000) * step.rate) + 1);
    for (; sent < due; sent++) {
      const scheduled = start + (sent / step.rate) * 1000;
      lags.push(now - scheduled);
      pending.push(
        fire(agent, url, opts, first + sent).then((status) => {
          const answered = performance.now();
          lastAnswer = Math.max(lastAnswer, answered);
          statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          if (status >= 200 && status < 300) latencies.push(answered - scheduled);
        }),
      );
    }
    await sleep(1);
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  const ok = latencies.length;
  const result: OpenLoopStepResult = {
    rate: step.rate,
    seconds: step.seconds,
    sent,
    ok,
    achievedRate: ok / ((lastAnswer - start) / 1000),
    latency: {
      p50: percentile(latencies, 0.5),
      p90: percentile(latencies, 0.9),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1) ?? 0,
    },
    errors: sent - ok,
    statusCodes,
    sendLagMs: { p99: percentile(lags, 0.99), max: lags.at(-1) ?? 0 },
  };
  return result;
}

process.once('message', (opts: OpenLoopOptions) => {
  void (async () => {
    try {
      const url = new URL(opts.url);
      // As many sockets as requests in flight (an open-loop client never waits for a free connection), and kept
      // open between steps, so that a step does not pay for connections a previous one already opened.
      const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 100_000 });
      let first = 0;
      for (const [index, step] of opts.steps.entries()) {
        if (!step.uncounted) await send({ type: 'step-start', index });
        const result = await runStep(agent, url, opts, step, first);
        first += result.sent;
        if (!step.uncounted) {
          await send({ type: 'step-end', index, result });
          if (result.errors > 0 || result.latency.p99 > opts.giveUpP99Ms) break;
        }
        await sleep(opts.pauseSeconds * 1000);
      }
      agent.destroy();
      await send({ type: 'done' });
    } catch (err) {
      await send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
    process.disconnect?.();
  })();
});
