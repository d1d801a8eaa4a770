import { loadavg } from 'node:os';
import { createNatsBus } from '@rootline/bus';
import {
  auditVerify,
  consistencyProofGet,
  contextToHeaders,
  inclusionProofGet,
  newId,
  plantRegistered,
  treeHeadGet,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import { quantile } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { seeded } from './lib/random.js';
import { startBenchTransparency } from './lib/transparency.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Events appended; `BENCH_AUDIT_EVENTS` changes it. */
const DEFAULT_EVENTS = 5000;
const PUBLISH_CONCURRENCY = 32;
const REQUESTS = 300;
const SEED = 5;

export const auditLogBench: Benchmark = {
  name: 'audit-log',
  title: 'Audit log: appends from the event stream, proofs and verification',
  timeLimitSeconds: () => 900,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const count = Number(process.env.BENCH_AUDIT_EVENTS ?? DEFAULT_EVENTS);
    const infra = await startBenchInfra(ctx);
    await startBenchTransparency(ctx, infra);
    const client = await createNatsBus({ url: infra.nats.url, name: 'bench-client' });
    ctx.scope.defer(() => client.close());
    const headers = contextToHeaders({ requestId: 'bench', actor: { id: 'usr_bench', role: 'GROWER' } });
    const size = async () => (await call(client, treeHeadGet, {}, { requestId: 'b' })).treeSize;

    ctx.log(`publishing ${fmt(count)} events and waiting for the audit log`);
    const t0 = performance.now();
    for (let i = 0; i < count; i += PUBLISH_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(PUBLISH_CONCURRENCY, count - i) }, (_, j) =>
        client.publish({
          id: newId('evt', Date.now()),
          subject: plantRegistered.subject,
          occurredAt: new Date().toISOString(),
          payload: { plantId: `plt_bench${String(i + j).padStart(8, '0')}`, commonName: 'Tomato' },
          headers,
        }),
      );
      await Promise.all(batch);
    }
    while ((await size()) < count) await new Promise((r) => setTimeout(r, 100));
    const appendSeconds = (performance.now() - t0) / 1000;
    const appendLoad = loadavg()[0] ?? 0;

    const random = seeded(SEED);
    const measure = async (name: string, one: () => Promise<unknown>) => {
      ctx.log(`measuring ${name}`);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const s = performance.now();
        await one();
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      return [name, fmt(quantile(times, 0.5), 2), fmt(quantile(times, 0.99), 2), fmt(loadavg()[0] ?? 0, 2)];
    };
    const pickIndex = () => Math.floor(random() * count);
    const table: Table = { head: ['request', 'p50 ms', 'p99 ms', 'load avg'], rows: [] };
    table.rows.push(
      await measure('inclusion proof', () =>
        call(client, inclusionProofGet, { index: pickIndex() }, { requestId: 'b' }),
      ),
    );
    table.rows.push(
      await measure('consistency proof', () =>
        call(client, consistencyProofGet, { first: pickIndex() + 1 }, { requestId: 'b' }),
      ),
    );
    table.rows.push(await measure('signed tree head', () => call(client, treeHeadGet, {}, { requestId: 'b' })));
    ctx.log('verifying the whole log');
    const v0 = performance.now();
    const verified = await call(client, auditVerify, {}, { requestId: 'b' }, 120_000);
    const verifySeconds = (performance.now() - v0) / 1000;
    if (!verified.valid) throw new Error(`verification failed: ${JSON.stringify(verified.problems.slice(0, 3))}`);

    const markdown = [
      `**${fmt(count)} events** (\`BENCH_AUDIT_EVENTS\`) published on NATS JetStream, ${PUBLISH_CONCURRENCY} at a ` +
        'time, consumed by the transparency service (one `evt.>` consumer applying batches of up to 200 events, ' +
        'ADR 066: one transaction per batch records the inbox rows, locks the audit head once and stores the ' +
        'entries, their Merkle nodes and the public-history rows, one statement each) into PostgreSQL.',
      '',
      `- Append: ${fmt(count)} events in ${fmt(appendSeconds, 1)} s, **${fmt(count / appendSeconds)} events/s** ` +
        `(publish to last entry committed; load avg ${fmt(appendLoad, 2)}).`,
      `- Whole-log verification (${fmt(count)} entries re-hashed, chain and root rebuilt): ` +
        `**${fmt(verifySeconds, 2)} s**.`,
      '',
      `Then ${REQUESTS} requests of each kind, one at a time over NATS, at random indexes of the ${fmt(count)}-entry log:`,
      '',
      markdownTable(table),
    ].join('\n');
    return {
      text: `${fmt(count / appendSeconds)} events/s appended, verify ${fmt(verifySeconds, 2)} s\n${textTable(table)}`,
      markdown,
    };
  },
};
