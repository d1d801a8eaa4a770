// Lighthouse's performance and accessibility scores of four pages of the web app (landing, Discover, a plant, a
// listing), at phone and laptop settings, against a private Rootline (NATS, PostgreSQL) started here, with the
// local Chromium; nothing is fetched from outside. Writes its section of docs/benchmarks.md. Usage:
//   pnpm --filter @rootline/web bench:lighthouse
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@rootline/testing';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { startBenchRootline } from './platform.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const BENCHMARKS = join(ROOT, 'docs', 'benchmarks.md');
const START = '<!-- bench:web-lighthouse:start -->';
const END = '<!-- bench:web-lighthouse:end -->';
/** Each page is scored this many times (`LIGHTHOUSE_RUNS`, default 3); the median is kept, as Lighthouse advises. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@rootline/web', '--output-logs=errors-only'], {
  cwd: ROOT,
  stdio: 'inherit',
});

const rootline = await startBenchRootline();
const { base } = rootline;
const PAGES = rootline.pages;
const debugPort = await freePort();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debugPort}`],
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
try {
  for (const [setting, config] of [
    ['phone', undefined],
    ['laptop', desktopConfig],
  ] as const) {
    for (const [name, path] of PAGES) {
      const perf: number[] = [];
      const a11y: number[] = [];
      let lcp = 0;
      for (let run = 0; run < RUNS; run++) {
        const flags: Flags = {
          port: debugPort,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        };
        const result = await lighthouse(`${base}${path}`, flags, config);
        const lhr = result!.lhr;
        perf.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
        a11y.push(Math.round((lhr.categories.accessibility?.score ?? 0) * 100));
        lcp += (lhr.audits['largest-contentful-paint']?.numericValue ?? 0) / RUNS;
      }
      const row = `| ${setting} | ${name} | ${median(perf)} | ${median(a11y)} | ${(lcp / 1000).toFixed(2)} s |`;
      console.log(row);
      rows.push(row);
    }
  }
} finally {
  await browser.close();
  await rootline.stop();
}

const section = [
  START,
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, Chromium headless, Lighthouse 12 ` +
    `(phone: its default mobile emulation and simulated slow 4G; laptop: its desktop preset), median of ${RUNS} runs.`,
  '',
  '| setting | page | performance | accessibility | largest contentful paint (mean) |',
  '| ------- | ---- | ----------- | ------------- | ------------------------------- |',
  ...rows,
  '',
  END,
].join('\n');
const doc = readFileSync(BENCHMARKS, 'utf8');
const at = doc.indexOf(START);
writeFileSync(
  BENCHMARKS,
  at >= 0 ? doc.slice(0, at) + section + doc.slice(doc.indexOf(END) + END.length) : `${doc.trimEnd()}\n\n${section}\n`,
);
