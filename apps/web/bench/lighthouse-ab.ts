// Two builds of the web app side by side at Lighthouse's phone settings, their runs interleaved page by page, so a
// loaded machine weighs on both alike. Prints the medians of each page: score, largest contentful paint, total
// blocking time, requests, main-thread time. Usage (build each with `vite build --outDir <dir>` first):
//   pnpm --filter @rootline/web bench:lighthouse:ab <before dir> <after dir>
// LIGHTHOUSE_RUNS (default 3) runs per page and build; LIGHTHOUSE_CPU=1 leaves the CPU unslowed (the request chain
// alone).
import { loadavg } from 'node:os';
import { freePort } from '@rootline/testing';
import lighthouse, { type Flags } from 'lighthouse';
import { chromium } from 'playwright-core';
import { type BenchRootline, startBenchRootline } from './platform.js';

const dirs = process.argv.slice(2);
if (dirs.length !== 2) throw new Error('usage: lighthouse-ab.ts <before dir> <after dir>');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CPU = process.env.LIGHTHOUSE_CPU ? Number(process.env.LIGHTHOUSE_CPU) : undefined;

const builds: (BenchRootline & { name: string })[] = [];
for (const [i, dir] of dirs.entries())
  builds.push({ name: i === 0 ? 'before' : 'after', ...(await startBenchRootline(dir)) });

const debugPort = await freePort();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debugPort}`],
});

type Row = { score: number; lcp: number; tbt: number; requests: number; main: number };
const rows = new Map<string, Row[]>();
const loads: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    for (let p = 0; p < builds[0]!.pages.length; p++) {
      // Each run starts with the other build, so neither always goes first.
      for (const build of run % 2 ? [...builds].reverse() : builds) {
        const [page, path] = build.pages[p]!;
        const flags: Flags = { port: debugPort, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
        if (CPU !== undefined) flags.throttling = { cpuSlowdownMultiplier: CPU } as Flags['throttling'];
        const lhr = (await lighthouse(`${build.base}${path}`, flags))!.lhr;
        const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
        const requests = lhr.audits['network-requests']?.details;
        const row: Row = {
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcp: value('largest-contentful-paint'),
          tbt: value('total-blocking-time'),
          requests: requests && 'items' in requests ? requests.items.length : Number.NaN,
          main: value('mainthread-work-breakdown'),
        };
        loads.push(loadavg()[0]!);
        const key = `${page} ${build.name}`;
        rows.set(key, [...(rows.get(key) ?? []), row]);
        console.log(key, JSON.stringify(row));
      }
    }
  }
} finally {
  await browser.close();
  for (const build of builds) await build.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `\nmedians of ${RUNS} runs, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
);
for (const [key, list] of rows) {
  const m = (f: keyof Row) => median(list.map((r) => r[f]));
  console.log(
    `${key.padEnd(18)} score ${m('score')}  LCP ${(m('lcp') / 1000).toFixed(2)} s  TBT ${Math.round(m('tbt'))} ms  ` +
      `requests ${m('requests')}  main thread ${(m('main') / 1000).toFixed(1)} s`,
  );
}
