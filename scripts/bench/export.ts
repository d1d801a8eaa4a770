import { loadavg } from 'node:os';
import { createNatsBus } from '@rootline/bus';
import { type ExportCursor, transparencyExportChunk } from '@rootline/contracts';
import { openDatabase } from '@rootline/db';
import { call, createLogger, startService } from '@rootline/host';
import { service as transparency } from '@rootline/transparency';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Events in the history; `BENCH_EXPORT_EVENTS` changes it. */
const DEFAULT_EVENTS = 1_000_000;
const MB = 1024 * 1024;

export const exportBench: Benchmark = {
  name: 'export',
  title: 'Transparency export: pieces of the public history over the bus',
  timeLimitSeconds: () => 1200,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const count = Number(process.env.BENCH_EXPORT_EVENTS ?? DEFAULT_EVENTS);
    const infra = await startBenchInfra(ctx);
    const database = await openDatabase({ url: infra.db.url, dataDir: '.' });
    ctx.scope.defer(() => database.close());
    const serviceBus = await createNatsBus({ url: infra.nats.url, name: 'transparency' });
    ctx.scope.defer(() => serviceBus.close());
    const running = await startService(transparency, {
      bus: serviceBus,
      database,
      log: createLogger('bench', 'silent'),
      env: {},
    });
    ctx.scope.defer(() => running.stop());
    const client = await createNatsBus({ url: infra.nats.url, name: 'bench-client' });
    ctx.scope.defer(() => client.close());

    ctx.log(`inserting ${fmt(count)} events into the history`);
    await database.db.execute(`
      insert into transparency.public_events (seq, event_id, kind, occurred_at, data)
      select g, 'evt_' || lpad(g::text, 26, '0'),
             case when g % 4 = 0 then 'plant.registered' else 'transport.completed' end,
             timestamptz '2026-01-01T00:00:00Z' + g * interval '1 second',
             case when g % 4 = 0
               then jsonb_build_object('plantId', 'plt_' || lpad(g::text, 26, '0'), 'commonName', 'Tomato ' || g)
               else jsonb_build_object('eventId', 'tev_' || g, 'kind', 'distribution',
                      'plantId', 'plt_' || lpad(g::text, 26, '0'), 'seedLotId', null, 'handlerId', 'usr_bench',
                      'recipientId', null, 'transportMode', 'truck', 'distanceKm', 12.5, 'kgCo2e', 1.25,
                      'eventTime', '2026-05-04T09:30:00+02:00', 'corrects', null)
             end
      from generate_series(1, ${count}) g`);
    await database.db.execute('analyze transparency.public_events');

    const table: Table = {
      head: ['format', 'events', 'MB', 'pieces', 'seconds', 'events/s', 'MB/s', 'load avg'],
      rows: [],
    };
    for (const format of ['csv', 'json', 'epcis'] as const) {
      ctx.log(`exporting as ${format}`);
      const t0 = performance.now();
      let cursor: ExportCursor | undefined;
      let events = 0;
      let bytes = 0;
      let pieces = 0;
      for (;;) {
        const piece = await call(
          client,
          transparencyExportChunk,
          { format, ...(cursor ? { cursor } : {}) },
          { requestId: 'bench' },
          60_000,
        );
        events += piece.count;
        bytes += Buffer.byteLength(piece.text);
        pieces += 1;
        if (piece.next === null) break;
        cursor = piece.next;
      }
      const seconds = (performance.now() - t0) / 1000;
      table.rows.push([
        format,
        fmt(events),
        fmt(bytes / MB, 0),
        fmt(pieces),
        fmt(seconds, 1),
        fmt(events / seconds),
        fmt(bytes / MB / seconds, 1),
        fmt(loadavg()[0] ?? 0, 2),
      ]);
    }
    const markdown = [
      `**${fmt(count)} events** (\`BENCH_EXPORT_EVENTS\`; ¾ \`transport.completed\`, ¼ \`plant.registered\`) ` +
        'inserted into the public history with `generate_series`, then exported whole in each format by asking ' +
        'for `transparency.export.chunk` piece after piece, one at a time over NATS (what the gateway does for ' +
        '`GET /api/transparency/export`, without HTTP); `epcis` holds only the transport events. Each piece is one ' +
        'keyset query of up to 3000 events, cut at ~750 KB of JSON-encoded text.',
      '',
      markdownTable(table),
    ].join('\n');
    return { text: textTable(table), markdown };
  },
};
