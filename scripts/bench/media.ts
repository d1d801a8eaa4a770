import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createNatsBus } from '@rootline/bus';
import { MEDIA_LIMITS, mediaUploadProcess, statusSubject } from '@rootline/contracts';
import { call } from '@rootline/host';
import { createLocalStorage } from '@rootline/storage';
import sharp from 'sharp';
import { spawnTs } from './lib/child.js';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { REPO_ROOT } from './lib/paths.js';
import { sleep } from './lib/scope.js';
import type { Benchmark } from './lib/types.js';

const WIDTH = 4000;
const HEIGHT = 3000;
const SECRET = 'bench-signing-secret-0123456789abcdef';

/** A 12-megapixel camera-like JPEG: noise over a gradient (no flat areas that would decode for free). */
async function twelveMegapixels(): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: { r: 90, g: 140, b: 60 },
      noise: { type: 'gaussian', mean: 120, sigma: 25 },
    },
  })
    .blur(1.2)
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'Rootline', Model: 'Bench' } })
    .toBuffer();
  return noise;
}

/** Peak and current resident memory of a process, from /proc (VmHWM is the high-water mark). */
async function memoryOf(pid: number): Promise<{ peakMb: number; rssMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

export const media: Benchmark = {
  name: 'media',
  title: 'Image processing: a 12-megapixel JPEG to the WebP original and four square thumbnails',
  timeLimitSeconds: (s) => 180 + 2 * s.rounds * (s.durationSeconds + s.warmupSeconds + 60),
  async run(ctx) {
    const { settings } = ctx;
    const infra = await startBenchInfra(ctx);
    const dataDir = await mkdtemp(join(tmpdir(), 'rootline-bench-media-'));
    ctx.scope.defer(() => rm(dataDir, { recursive: true, force: true }));
    const child = spawnTs(ctx.scope, {
      name: 'media',
      script: join(REPO_ROOT, 'services', 'media', 'src', 'index.ts'),
      env: {
        NATS_URL: infra.nats.url,
        DATABASE_URL: infra.db.url,
        DATA_DIR: dataDir,
        STORAGE_DRIVER: 'local',
        STORAGE_SIGNING_SECRET: SECRET,
        LOG_LEVEL: 'warn',
      },
      verbose: settings.verbose,
    });
    const bus = await createNatsBus({ url: infra.nats.url, name: 'bench-media' });
    ctx.scope.defer(() => bus.close());
    const storage = createLocalStorage({ dir: join(dataDir, 'media'), secret: SECRET, publicUrl: '', now: Date.now });
    for (let i = 0; ; i++) {
      const up = await bus.request(statusSubject('media').subject, {}, { timeoutMs: 1000 }).catch(() => null);
      if (up) break;
      if (i > 120) throw new Error('media did not start');
      await sleep(500);
    }
    const jpeg = await twelveMegapixels();
    const idle = await memoryOf(child.pid);
    ctx.log(`12 MP JPEG of ${fmt(jpeg.length / 1024)} KiB; media idle at ${fmt(idle.rssMb)} MB`);

    // One image through the real path: the bytes into storage under a pending key, then media.upload.process.
    const one = async () => {
      const uploadKey = `pending/${randomBytes(18).toString('base64url')}`;
      await storage.put(uploadKey, Readable.from([jpeg]), { contentType: 'application/octet-stream' });
      const context = {
        requestId: `bench-${randomBytes(6).toString('hex')}`,
        actor: { id: 'usr_bench', role: 'USER' as const },
      };
      const info = await call(
        bus,
        mediaUploadProcess,
        { kind: 'image', uploadKey, filename: 'bench.jpg', category: 'plant-photo' },
        context,
        120_000,
      );
      await storage.delete(await storage.list(`files/${info.id}/`));
    };
    const measure = async (workers: number, seconds: number) => {
      let done = 0;
      const started = performance.now();
      const deadline = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (performance.now() < deadline) {
            await one();
            done++;
          }
        }),
      );
      return { done, seconds: (performance.now() - started) / 1000 };
    };

    const rows: string[][] = [];
    for (const workers of [1, 2]) {
      for (let round = 1; round <= settings.rounds; round++) {
        if (settings.warmupSeconds > 0) await measure(workers, settings.warmupSeconds);
        ctx.log(`${workers} image(s) at a time, round ${round}: ${settings.durationSeconds} s`);
        const load0 = loadavg()[0] ?? 0;
        const r = await measure(workers, settings.durationSeconds);
        const mem = await memoryOf(child.pid);
        rows.push([
          String(workers),
          String(round),
          String(r.done),
          fmt(r.done / r.seconds, 2),
          fmt((r.seconds * 1000 * workers) / Math.max(1, r.done)),
          fmt(mem.peakMb),
          `${fmt(load0, 2)} → ${fmt(loadavg()[0] ?? 0, 2)}`,
        ]);
      }
    }
    const table: Table = {
      head: [
        'images at a time',
        'round',
        'images',
        'images/s',
        'ms per image',
        'media peak RSS (MB)',
        'load average (1 min)',
      ],
      rows,
      right: [true, true, true, true, true, true, false],
    };
    const note =
      `Each image: the JPEG (${WIDTH} × ${HEIGHT}, ${fmt(jpeg.length / 1024)} KiB) written to local storage under a ` +
      'pending key, then `media.upload.process` over NATS: type by bytes, header pixel check, one validating ' +
      `decode, EXIF, and five WebP outputs (full size and ${MEDIA_LIMITS.thumbnailSizes.join(', ')} px squares), ` +
      'each streamed from libvips into storage, and the row with its outbox event. The media process is the ' +
      `real service (tsx, sources); its resident memory was ${fmt(idle.rssMb)} MB idle, and the peak column is ` +
      'its high-water mark so far (VmHWM), so the two-at-a-time rows include the one-at-a-time peak.';
    return { text: `${textTable(table)}\n\n${note}`, markdown: `${markdownTable(table)}\n\n${note}` };
  },
};
