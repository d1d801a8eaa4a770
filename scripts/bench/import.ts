import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Seed-lot rows of the file; `BENCH_IMPORT_ROWS` changes it. */
const DEFAULT_ROWS = 100_000;
/** Plant rows (each a ledger write at the default difficulty); `BENCH_IMPORT_PLANTS` changes it. */
const DEFAULT_PLANTS = 100_000;
const OWNER = 'usr_bench_importer';

function seedLotCsv(rows: number): string {
  const crops = ['tomato', 'bean', 'pea', 'lettuce', 'carrot', 'squash', 'pepper', 'onion'];
  const lines = [
    'key,crop,variety,harvestYear,quantityAmount,quantityUnit,parentPlantIds,storagePlace,storageTemperatureC,storageHumidityPct,storageContainer,notes',
  ];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `lot-${i},${crops[i % crops.length]},Variety ${i % 97},${2015 + (i % 11)},${(i % 500) + 1},seeds,,` +
        `"shelf ${i % 40}, box ${i % 7}",${i % 12},${30 + (i % 20)},glass jar,"saved from bed ${i % 13}"`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function plantCsv(rows: number): string {
  const lines = ['key,commonName,scientificName,latitude,longitude,city,country,privacyLevel'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `plant-${i},Tomato ${i % 50},Solanum lycopersicum,${(48 + (i % 500) / 100).toFixed(2)},${(2 + (i % 700) / 100).toFixed(2)},,,city`,
    );
  }
  return `${lines.join('\n')}\n`;
}

interface Run {
  label: string;
  rows: number;
  bytes: number;
  uploadSeconds: number;
  seconds: number;
  counts: { created: number; unchanged: number; failed: number };
  /** Rows read at each poll: the progress a client sees. */
  samples: number;
}

/**
 * CSV import: a file of seed lots (100,000 rows by default) uploaded to `POST /api/imports` and read to its end by
 * the plants service, as a dry run, an import and a re-import of the same file; then a file of plants (100,000 by
 * default), whose every row is a ledger write at the chain's default difficulty. Both targets: a minute.
 */
export const importBench: Benchmark = {
  name: 'import',
  title: 'CSV import: 100,000 seed lots, and 100,000 plants through the ledger',
  timeLimitSeconds: () => 1800,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const rows = Number(process.env.BENCH_IMPORT_ROWS ?? DEFAULT_ROWS);
    const plantRows = Number(process.env.BENCH_IMPORT_PLANTS ?? DEFAULT_PLANTS);
    const dir = await mkdtemp(join(tmpdir(), 'rootline-bench-import-'));
    ctx.scope.defer(() => rm(dir, { recursive: true, force: true }));
    const p = await startTestPlatform([chainMiner, plants], { STORAGE_DIR: dir, LOG_LEVEL: 'silent' });
    ctx.scope.defer(() => p.stop());
    const token = await p.token('GROWER', OWNER, 'Bench Importer');

    const importFile = async (label: string, kind: string, csv: string, dryRun: boolean): Promise<Run> => {
      const form = new FormData();
      form.append('kind', kind);
      form.append('dryRun', String(dryRun));
      form.append('file', new Blob([csv], { type: 'text/csv' }), `${kind}.csv`);
      const body = new Response(form);
      const payload = Buffer.from(await body.arrayBuffer());
      const t0 = performance.now();
      const res = await p.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: { authorization: `Bearer ${token}`, 'content-type': body.headers.get('content-type') ?? '' },
        payload,
      });
      if (res.statusCode !== 202) throw new Error(`import: ${res.statusCode} ${res.body}`);
      const uploadSeconds = (performance.now() - t0) / 1000;
      const id = (res.json() as { data: { id: string } }).data.id;
      let samples = 0;
      for (;;) {
        const job = (
          (await p.http('GET', `/api/imports/${id}?limit=1`, { token })).body as {
            data: { state: string; progress: { rowsRead: number }; counts: Run['counts'] };
          }
        ).data;
        if (job.state === 'done' || job.state === 'failed') {
          const seconds = (performance.now() - t0) / 1000;
          ctx.log(`${label}: ${fmt(job.progress.rowsRead)} rows in ${fmt(seconds, 1)} s`);
          return {
            label,
            rows: job.progress.rowsRead,
            bytes: payload.length,
            uploadSeconds,
            seconds,
            counts: job.counts,
            samples,
          };
        }
        samples += 1;
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    const lots = seedLotCsv(rows);
    const runs: Run[] = [];
    ctx.log(`seed lots: ${fmt(rows)} rows, ${fmt(lots.length / 1024 / 1024, 1)} MB`);
    runs.push(await importFile('seed lots, dry run', 'seed-lots', lots, true));
    runs.push(await importFile('seed lots, import', 'seed-lots', lots, false));
    runs.push(await importFile('seed lots, same file again', 'seed-lots', lots, false));
    const plantFile = plantCsv(plantRows);
    runs.push(await importFile('plants, dry run', 'plants', plantFile, true));
    runs.push(await importFile('plants, import (ledger)', 'plants', plantFile, false));

    const table: Table = {
      head: ['file', 'rows', 'MB', 'upload s', 'total s', 'rows/s', 'created', 'unchanged', 'failed', 'polls'],
      rows: runs.map((r) => [
        r.label,
        fmt(r.rows),
        fmt(r.bytes / 1024 / 1024, 1),
        fmt(r.uploadSeconds, 2),
        fmt(r.seconds, 1),
        fmt(r.rows / r.seconds),
        fmt(r.counts.created),
        fmt(r.counts.unchanged),
        fmt(r.counts.failed),
        fmt(r.samples),
      ]),
    };
    const imported = runs[1] as Run;
    const plantRun = runs[4] as Run;
    const markdown = [
      `A CSV file of **${fmt(rows)} seed lots** (\`BENCH_IMPORT_ROWS\`; every column filled but the parents, quoted ` +
        'cells with commas) sent to `POST /api/imports` (multipart, streamed into local storage) and followed with ' +
        '`GET /api/imports/{id}` every 250 ms until done; then a file of ' +
        `**${fmt(plantRows)} plants** (\`BENCH_IMPORT_PLANTS\`, privacy level city), each registered on the ledger. ` +
        'Gateway, plants and chain-miner run in this one process (in-process HTTP, no sockets) on a private ' +
        'nats-server and a fresh PostgreSQL database; ledger settings at their defaults (difficulty 16). ' +
        '"total s" runs from the start of the upload to the poll that saw the job done (within 250 ms of its end).',
      '',
      markdownTable(table),
      '',
      `\`nproc\` ${availableParallelism()}, \`node -v\` ${process.version}; load average ${fmt(loadavg()[0] ?? 0, 2)} at ` +
        'the end (the machine is shared: figures of one run differ from the next by a factor of up to three). ' +
        `Reading: the import of ${fmt(imported.rows)} seed lots ` +
        `took ${fmt(imported.seconds, 1)} s (${fmt(imported.rows / imported.seconds)} rows/s), ` +
        `${imported.seconds <= 60 ? 'within' : 'outside'} the target of a minute: rows are parsed as a stream and ` +
        'written 1,000 to a transaction with their keys and first quantity changes. The dry run reads and checks ' +
        'the same rows and looks their keys up, writing nothing; the second import finds every key and writes ' +
        `nothing. The ${fmt(plantRun.rows)} plants went through the proof-of-work ledger in ` +
        `${fmt(plantRun.seconds, 1)} s (${fmt(plantRun.rows / plantRun.seconds)} rows/s; 100,000 in about ` +
        `${fmt(100_000 / (plantRun.rows / plantRun.seconds), 0)} s, ` +
        `${100_000 / (plantRun.rows / plantRun.seconds) <= 60 ? 'within' : 'outside'} the target of a minute): up ` +
        'to three batches of 1,000 wait for their blocks while the next is read and checked, and whether a ' +
        "batch's plants are stored already is asked once for the batch (ADR 298, 300).",
    ].join('\n');
    return { text: textTable(table), markdown };
  },
};
