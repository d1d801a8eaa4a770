import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gazetteer, reverseGeocode, searchPlaces, warmGeocoder } from '@rootline/geocoder';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { REPO_ROOT } from './lib/paths.js';
import { seeded } from './lib/random.js';
import type { Benchmark, BenchReport } from './lib/types.js';

const run = promisify(execFile);
const SEED = 115;

interface Memory {
  places: number;
  gazetteerMs: number;
  coderMs: number;
  namesMs: number;
  gazetteer: { heap: number; rss: number };
  coder: { heap: number; rss: number };
  names: { heap: number; rss: number };
  total: { heap: number; rss: number };
}

/** Load times and memory in a fresh process, so nothing else this one holds is counted. */
async function memoryInFreshProcess(): Promise<Memory> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--conditions=development', join('bench', 'lib', 'geocoder-memory.ts')],
    { cwd: join(REPO_ROOT, 'scripts'), maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Memory;
}

/** Calls of `fn` per second over `seconds`, cycling through `inputs`. */
async function rate<T>(inputs: T[], seconds: number, fn: (x: T) => unknown): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let n = 0;
  while (performance.now() < deadline) {
    for (let k = 0; k < 1000; k++) await fn(inputs[n++ % inputs.length]!);
  }
  return n / ((performance.now() - started) / 1000);
}

export const geocoderBench: Benchmark = {
  name: 'geocoder',
  title: 'Reverse and forward geocoding from the bundled data: lookups per second and the memory the data takes',
  timeLimitSeconds: (s) => 120 + 4 * Math.min(s.durationSeconds, 10),
  async run(ctx): Promise<BenchReport> {
    const seconds = Math.min(ctx.settings.durationSeconds, 10);
    ctx.log('loading the data in a fresh process (time and memory)');
    const memory = await memoryInFreshProcess();

    await warmGeocoder();
    const places = gazetteer();
    const random = seeded(SEED);
    // Where plants are: near a place of the gazetteer (within about 20 km); and anywhere on Earth, sea included.
    const nearPlaces = Array.from({ length: 10_000 }, () => {
      const i = Math.floor(random() * places.size);
      return {
        latitude: Math.max(-90, Math.min(90, places.latitude(i) + (random() - 0.5) * 0.4)),
        longitude: ((places.longitude(i) + (random() - 0.5) * 0.4 + 540) % 360) - 180,
      };
    });
    const anywhere = Array.from({ length: 10_000 }, () => ({
      latitude: (Math.asin(2 * random() - 1) * 180) / Math.PI,
      longitude: random() * 360 - 180,
    }));
    ctx.log(`reverse lookups, ${seconds} s each`);
    const reverseNear = await rate(nearPlaces, seconds, (p) => reverseGeocode(p, 'exact'));
    const reverseCity = await rate(nearPlaces, seconds, (p) => reverseGeocode(p, 'city'));
    const reverseAnywhere = await rate(anywhere, seconds, (p) => reverseGeocode(p, 'exact'));
    ctx.log(`forward searches, ${seconds} s each`);
    const names = ['Paris', 'zurich', 'São Paulo', 'rotterd', 'Springfield, us', 'Malmo', 'Nairobi', 'tokyo'];
    const typos = ['Amsterdma', 'Barcelna', 'Lisbom', 'Frankfrut'];
    const forwardExact = await rate(names, seconds, (q) => searchPlaces(q, 10));
    const forwardTypo = await rate(typos, seconds, (q) => searchPlaces(q, 10));

    const speed: Table = {
      head: ['operation', 'calls/s (one core)', 'per call'],
      rows: [
        ['reverse, points near places (level exact)', fmt(reverseNear), `${fmt(1e6 / reverseNear, 1)} µs`],
        [
          'reverse, points near places (level city: towns ≥ 15,000)',
          fmt(reverseCity),
          `${fmt(1e6 / reverseCity, 1)} µs`,
        ],
        ['reverse, uniform over the globe (sea included)', fmt(reverseAnywhere), `${fmt(1e6 / reverseAnywhere, 1)} µs`],
        ['forward, exact or prefix names', fmt(forwardExact), `${fmt(1000 / forwardExact, 2)} ms`],
        ['forward, names with a typo (edit-distance scan)', fmt(forwardTypo), `${fmt(1000 / forwardTypo, 1)} ms`],
      ],
    };
    const mem: Table = {
      head: ['data', 'load time', 'heap + array buffers', 'resident memory'],
      rows: [
        [
          `gazetteer: ${fmt(memory.places)} places, 1° grid`,
          `${fmt(memory.gazetteerMs)} ms`,
          `${fmt(memory.gazetteer.heap, 1)} MB`,
          `${fmt(memory.gazetteer.rss, 1)} MB`,
        ],
        [
          'country boundaries (country-coder)',
          `${fmt(memory.coderMs)} ms`,
          `${fmt(memory.coder.heap, 1)} MB`,
          `${fmt(memory.coder.rss, 1)} MB`,
        ],
        [
          'name index (first search by name)',
          `${fmt(memory.namesMs)} ms`,
          `${fmt(memory.names.heap, 1)} MB`,
          `${fmt(memory.names.rss, 1)} MB`,
        ],
        [
          'all',
          `${fmt(memory.gazetteerMs + memory.coderMs + memory.namesMs)} ms`,
          `${fmt(memory.total.heap, 1)} MB`,
          `${fmt(memory.total.rss, 1)} MB`,
        ],
      ],
    };
    const markdown =
      'In one process, no network: `reverseGeocode` (country-coder boundaries, then the nearest gazetteer place ' +
      'of that country) and `searchPlaces` (the name index) called back to back on one core, each for ' +
      `${seconds} s.\n\n${markdownTable(speed)}\n\nLoaded once per process, lazily (the plants service warms ` +
      'it after start-up), measured in a fresh process after garbage collection:\n\n' +
      `${markdownTable(mem)}\n`;
    return { text: `${textTable(speed)}\n\n${textTable(mem)}`, markdown };
  },
};
