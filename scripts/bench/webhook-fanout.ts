import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createNatsBus } from '@rootline/bus';
import { contextToHeaders, newId, plantRegistered, webhookCreate } from '@rootline/contracts';
import { call } from '@rootline/host';
import postgres from 'postgres';
import { quantile } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { startBenchTransparency } from './lib/transparency.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Events published; `BENCH_WEBHOOK_EVENTS` changes it. */
const DEFAULT_EVENTS = 10_000;
const RECEIVERS = 10;
const PUBLISH_CONCURRENCY = 32;
const OWNER = 'usr_benchfanout';

/** Local receivers that note when each delivery of each plant arrives. */
async function startReceivers(ctx: BenchContext, onDelivery: (plantId: string, at: number) => void) {
  const urls: string[] = [];
  for (let i = 0; i < RECEIVERS; i++) {
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { plantId: string } };
        onDelivery(body.data.plantId, at);
        res.writeHead(204).end();
      });
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    ctx.scope.defer(() => new Promise<void>((r) => server.close(() => r())));
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  }
  return urls;
}

interface Phase {
  seconds: number;
  deliveries: number;
  p50: number;
  p99: number;
  max: number;
  load: number;
}

function summarise(latencies: number[], seconds: number): Phase {
  latencies.sort((a, b) => a - b);
  return {
    seconds,
    deliveries: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? 0,
    load: loadavg()[0] ?? 0,
  };
}

export const webhookFanout: Benchmark = {
  name: 'webhook-fanout',
  title: 'Webhook fan-out: events to local receivers',
  timeLimitSeconds: () => 1800,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const count = Number(process.env.BENCH_WEBHOOK_EVENTS ?? DEFAULT_EVENTS);
    const concurrency = process.env.BENCH_WEBHOOK_CONCURRENCY;
    const infra = await startBenchInfra(ctx);
    const pg = postgres(infra.db.url, { max: 2, onnotice: () => {} });
    ctx.scope.defer(() => pg.end());

    // When each plant's event was published (end to end) or became due (sender alone), and the latencies seen.
    const startOf = new Map<string, number>();
    let latencies: number[] = [];
    let expected = 0;
    let onDone: (() => void) | undefined;
    const urls = await startReceivers(ctx, (plantId, at) => {
      const start = startOf.get(plantId);
      if (start !== undefined) latencies.push(at - start);
      if (latencies.length === expected) onDone?.();
    });
    const allDelivered = (n: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        expected = n;
        if (latencies.length >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`only ${latencies.length} of ${n} deliveries within ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        onDone = () => {
          clearTimeout(timer);
          resolve();
        };
      });

    await startBenchTransparency(ctx, infra, {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...(concurrency ? { WEBHOOK_CONCURRENCY: concurrency } : {}),
    });
    const client = await createNatsBus({ url: infra.nats.url, name: 'bench-client' });
    ctx.scope.defer(() => client.close());
    const actor = { id: OWNER, role: 'GROWER' as const };
    for (const url of urls) {
      await call(
        client,
        webhookCreate,
        { url, events: ['plant.registered'], secret: 'bench-shared-secret-0123456789' },
        { requestId: 'bench', actor },
      );
    }
    const headers = contextToHeaders({ requestId: 'bench', actor });
    const total = count * RECEIVERS;

    // 1. End to end: publish, audit log (which queues the deliveries in its transaction), sender, receivers.
    const senderOnly = process.env.BENCH_WEBHOOK_SENDER_ONLY === '1';
    if (!senderOnly) ctx.log(`end to end: publishing ${fmt(count)} events to ${RECEIVERS} receivers each`);
    let publishSeconds = 0;
    let queuedSeconds = 0;
    let endToEnd: Phase | undefined;
    if (!senderOnly) {
      const t0 = performance.now();
      const delivered = allDelivered(total, 1_200_000);
      for (let i = 0; i < count; i += PUBLISH_CONCURRENCY) {
        await Promise.all(
          Array.from({ length: Math.min(PUBLISH_CONCURRENCY, count - i) }, (_, j) => {
            const plantId = `plt_fan${String(i + j).padStart(10, '0')}`;
            startOf.set(plantId, performance.now());
            return client.publish({
              id: newId('evt', Date.now()),
              subject: plantRegistered.subject,
              occurredAt: new Date().toISOString(),
              payload: { plantId, commonName: 'Tomato', ownerId: OWNER },
              headers,
            });
          }),
        );
      }
      publishSeconds = (performance.now() - t0) / 1000;
      const queued = (async () => {
        for (;;) {
          const rows = await pg<{ n: number }[]>`select count(*)::int as n from transparency.webhook_deliveries`;
          if ((rows[0]?.n ?? 0) >= total) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        queuedSeconds = (performance.now() - t0) / 1000;
      })();
      await delivered;
      await queued;
      endToEnd = summarise(latencies, (performance.now() - t0) / 1000);
    }

    // 2. The sender alone: the same number of deliveries, all due at one instant, as the audit log leaves them.
    ctx.log(`sender alone: ${fmt(total)} deliveries due at once`);
    latencies = [];
    startOf.clear();
    const dueAtMs = Date.now() + 3000;
    await pg`
      insert into transparency.webhook_deliveries (id, webhook_id, event_id, kind, occurred_at, data, next_attempt_at, created_at)
      select 'whd_s' || lpad(e::text, 10, '0') || w.id, w.id, 'evt_s' || e, 'plant.registered', now()::text,
             jsonb_build_object('plantId', 'plt_snd' || lpad(e::text, 10, '0'), 'commonName', 'Tomato', 'ownerId', ${OWNER}::text),
             to_timestamp(${dueAtMs}::float8 / 1000.0), now()
      from generate_series(0, ${count - 1}::int) e cross join transparency.webhooks w`;
    const dueAt = performance.now() + (dueAtMs - Date.now());
    for (let e = 0; e < count; e++) startOf.set(`plt_snd${String(e).padStart(10, '0')}`, dueAt);
    await allDelivered(total, 1_200_000);
    const senderAlone = summarise(latencies, (performance.now() - dueAt) / 1000);

    const table: Table = {
      head: ['phase', 'deliveries', 'total s', 'deliveries/s', 'p50 ms', 'p99 ms', 'max ms', 'load avg'],
      rows: [
        ...(endToEnd ? [['end to end (publish → receiver)', endToEnd]] : []),
        ['sender alone (due → receiver)', senderAlone],
      ].map(([name, ph]) => {
        const x = ph as Phase;
        return [
          name as string,
          fmt(x.deliveries),
          fmt(x.seconds, 1),
          fmt(x.deliveries / x.seconds),
          fmt(x.p50),
          fmt(x.p99),
          fmt(x.max),
          fmt(x.load, 2),
        ];
      }),
    };
    const markdown = [
      `**${fmt(count)} events** (\`BENCH_WEBHOOK_EVENTS\`) of kind \`plant.registered\`, each concerning one owner who ` +
        `has ${RECEIVERS} webhooks, one per local HTTP receiver (in the benchmark process, answering 204): ` +
        `${fmt(total)} signed deliveries. The transparency service runs in the benchmark process on a private ` +
        `nats-server and PostgreSQL, \`WEBHOOK_CONCURRENCY\` ${concurrency ?? 'default'}.`,
      '',
      `- End to end: events published on NATS JetStream ${PUBLISH_CONCURRENCY} at a time (in ${fmt(publishSeconds, 1)} s); ` +
        'the audit-log consumer appends each one and queues its deliveries in the same transaction; the sender ' +
        `claims and POSTs them. Every delivery was queued ${fmt(queuedSeconds, 1)} s after the first publish. ` +
        'Latency: publish to arrival at the receiver.',
      `- Sender alone: ${fmt(total)} delivery rows inserted with one due time, as the audit log leaves them; latency ` +
        'from that due time to arrival (so it is mostly the wait in the queue of a burst).',
      '',
      markdownTable(table),
    ].join('\n');
    return { text: textTable(table), markdown };
  },
};
