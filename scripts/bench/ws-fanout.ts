import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createNatsBus } from '@rootline/bus';
import { realtimePublished } from '@rootline/contracts';
import { mintToken } from '@rootline/testing';
import postgres from 'postgres';
import WebSocket from 'ws';
import { spawnTs } from './lib/child.js';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { SCRIPTS_DIR } from './lib/paths.js';
import { sleep } from './lib/scope.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

const CLIENTS = 1000;
const REPLICAS = 2;
/** Messages per second published to the `network` room, one configuration each. */
const RATES = [10, 50, 100];
const JWT_SECRET = 'w'.repeat(32);

const READING =
  'Reading: each message is serialised once per room and written to every member socket, so a replica’s cost is one ' +
  'NATS message plus one WebSocket frame write per member. At 10 messages/s (10,000 deliveries/s) every frame ' +
  'arrived, with a p50 of tens of milliseconds. From 50 messages/s deliveries level off near 17,000 a second and ' +
  'the latency is queueing: the system is saturated. The 1,000 clients run in one process on the same two cores ' +
  'as both replicas and nats-server, and this run does not separate their shares, so the ceiling belongs to the ' +
  'whole set-up, not to the gateways alone. At 100 messages/s a quarter of the frames had not arrived 30 s after ' +
  'the last was published; no socket reached the 8 MiB unsent limit, so none was dropped.';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A sorted copy's value at quantile q (0..1). */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * WebSocket fan-out: two gateway replicas (separate processes) on a private nats-server and PostgreSQL, 1,000
 * `ws` clients (half on each) in the `network` room, messages broadcast on `sig.realtime.message.published` at a
 * fixed rate for `--duration` seconds. Each message carries its send time; each client records the delay until it
 * parsed the frame. Reports deliveries per second, p50/p99/max delivery latency and clients dropped.
 */
export const wsFanout: Benchmark = {
  name: 'ws-fanout',
  title: 'WebSocket fan-out: 1,000 clients on two gateway replicas',
  timeLimitSeconds: (s) => 300 + RATES.length * (s.durationSeconds + 60),
  async run(ctx: BenchContext): Promise<BenchReport> {
    const infra = await startBenchInfra(ctx);
    const ports: number[] = [];
    for (let i = 0; i < REPLICAS; i++) ports.push(await freePort());
    ctx.log(`starting ${REPLICAS} gateway replicas`);
    const children = ports.map((port) =>
      spawnTs(ctx.scope, {
        name: `gateway-${port}`,
        script: join(SCRIPTS_DIR, 'bench', 'lib', 'ws-gateway.ts'),
        ipc: true,
        verbose: ctx.settings.verbose,
        env: {
          NATS_URL: infra.nats.url,
          DATABASE_URL: infra.db.url,
          PORT: String(port),
          JWT_SECRET,
          LOG_LEVEL: 'silent',
          RATE_LIMIT_PER_MINUTE: '1000000',
          RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
          RATE_LIMIT_SESSION_PER_MINUTE: '1000000',
          RATE_LIMIT_PER_HOUR_PER_USER: '1000000',
          WS_MAX_BUFFERED_BYTES: String(8 * 1024 * 1024),
        },
      }),
    );
    await Promise.all(children.map((c) => once(c.process, 'message')));

    ctx.log(`seeding ${CLIENTS} accounts and sessions`);
    const pg = postgres(infra.db.url, { max: 1, onnotice: () => {} });
    ctx.scope.defer(() => pg.end());
    const ids = Array.from({ length: CLIENTS }, (_, i) => `usr_wsbench${i}`);
    await pg`insert into identity.users ${pg(ids.map((id) => ({ id, email: `${id}@bench.example`, name: id, role: 'USER' })))}`;
    await pg`insert into identity.sessions ${pg(
      ids.map((id) => ({
        id: `ses_${id}`,
        user_id: id,
        method: 'password',
        expires_at: new Date(Date.now() + 86_400_000),
      })),
    )}`;

    ctx.log(`opening ${CLIENTS} sockets`);
    const latencies = new Float64Array(CLIENTS * 100 * 120);
    let received = 0;
    const clients: WebSocket[] = [];
    const batch: Promise<void>[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const token = mintToken({ sub: ids[i]!, sid: `ses_${ids[i]}`, role: 'USER', secret: JWT_SECRET });
      const ws = new WebSocket(`ws://127.0.0.1:${ports[i % REPLICAS]}/api/realtime/ws`, {
        headers: { authorization: `Bearer ${token}` },
      });
      ctx.scope.defer(() => ws.terminate());
      let subscribed!: () => void;
      const joined = new Promise<void>((r) => {
        subscribed = r;
      });
      ws.on('message', (raw) => {
        const text = raw.toString();
        if (text.includes('"test.fanout"')) {
          const sentAt = (JSON.parse(text) as { data: { t: number } }).data.t;
          if (received < latencies.length) latencies[received] = performance.timeOrigin + performance.now() - sentAt;
          received++;
        } else if (text.includes('"welcome"')) ws.send(JSON.stringify({ type: 'subscribe', room: 'network' }));
        else if (text.includes('"subscribed"')) subscribed();
      });
      ws.on('error', (err) => ctx.log(`socket ${i}: ${err.message}`));
      clients.push(ws);
      batch.push(joined);
      // Fifty at a time: each socket authenticates (a session lookup) and joins before the next batch opens.
      if (batch.length === 50 || i === CLIENTS - 1) {
        await Promise.all(batch);
        batch.length = 0;
      }
    }

    const bus = await createNatsBus({ url: infra.nats.url, name: 'bench-publisher' });
    ctx.scope.defer(() => bus.close());
    const rows: string[][] = [];
    const statsBefore = await dropped(ports, JWT_SECRET, ids[0]!);
    for (const rate of RATES) {
      const total = rate * ctx.settings.durationSeconds;
      const expected = total * CLIENTS;
      received = 0;
      ctx.log(`${rate} messages/s for ${ctx.settings.durationSeconds} s (${fmt(expected)} deliveries)`);
      const load0 = loadavg()[0] ?? 0;
      const t0 = performance.now();
      for (let n = 0; n < total; n++) {
        const due = t0 + (n * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        await bus.broadcast(realtimePublished.subject, {
          room: 'network',
          event: 'test.fanout',
          data: { n, t: performance.timeOrigin + performance.now() },
          sentAt: new Date().toISOString(),
        });
      }
      const end = Date.now() + 30_000;
      while (received < expected && Date.now() < end) await sleep(20);
      const seconds = (performance.now() - t0) / 1000;
      const got = Math.min(received, latencies.length);
      const sorted = latencies.slice(0, got).sort();
      const load = Math.max(load0, loadavg()[0] ?? 0);
      rows.push([
        fmt(rate),
        fmt(expected),
        fmt(received),
        fmt(received / seconds),
        fmt(quantile(sorted, 0.5), 1),
        fmt(quantile(sorted, 0.99), 1),
        fmt(sorted[sorted.length - 1] ?? Number.NaN, 1),
        fmt(load, 2),
      ]);
      await sleep(2000);
    }
    const droppedClients = (await dropped(ports, JWT_SECRET, ids[0]!)) - statsBefore;

    const table: Table = {
      head: [
        'messages/s published',
        'deliveries expected',
        'delivered',
        'deliveries/s',
        'p50 ms',
        'p99 ms',
        'max ms',
        'load avg (1 min)',
      ],
      rows,
    };
    const markdown = [
      `${fmt(CLIENTS)} WebSocket clients (the \`ws\` package, in the benchmark process), ${CLIENTS / REPLICAS} on each ` +
        `of ${REPLICAS} gateway replicas (separate Node processes, \`tsx\`), all in the \`network\` room, on a private ` +
        'nats-server and PostgreSQL. Messages are broadcast on `sig.realtime.message.published` (as notify sends ' +
        `in-app notifications) at a fixed rate for ${ctx.settings.durationSeconds} s per row; each carries its send ` +
        'time and each client records the delay until it parsed the frame (the same clock). Deliveries/s counts ' +
        `frames received by all clients over the row's time (publishing plus the drain). Clients dropped as too slow ` +
        `over the run: ${droppedClients}. The machine was shared with other workloads while this ran: the load ` +
        'average (1 min, the larger of the values at the start and end of the row) is far above the 2 cores, so ' +
        'these figures are a floor, not a capacity.',
      '',
      markdownTable(table),
      '',
      READING,
    ].join('\n');
    return { text: textTable(table), markdown };
  },
};

/** Clients dropped so far, summed over the replicas (their /api/realtime/stats). */
async function dropped(ports: number[], secret: string, sub: string): Promise<number> {
  const token = mintToken({ sub, sid: `ses_${sub}`, role: 'USER', secret });
  let sum = 0;
  for (const port of ports) {
    const res = await fetch(`http://127.0.0.1:${port}/api/realtime/stats`, {
      headers: { authorization: `Bearer ${token}` },
    });
    sum += ((await res.json()) as { data: { droppedClients: number } }).data.droppedClients;
  }
  return sum;
}
