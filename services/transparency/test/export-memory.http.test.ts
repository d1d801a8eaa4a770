import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// A full collection before each sample, so the figure is the memory the export holds, not garbage awaiting the GC.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const EVENTS = 1_000_000;

describe('a streamed export of a million events', () => {
  let p: TestPlatform;
  let base: string;
  let token: string;

  beforeAll(async () => {
    p = await startTestPlatform([transparency]);
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(p.app.server.address() as AddressInfo).port}`;
    token = await p.token('USER', 'usr_reader');
    // Straight into the history table: a million events recorded one by one would take the test's whole budget.
    await p.database.db.execute(sql`
      insert into transparency.public_events (seq, event_id, kind, occurred_at, data)
      select g,
             'evt_' || lpad(g::text, 26, '0'),
             case when g % 4 = 0 then 'plant.registered' else 'transport.completed' end,
             timestamptz '2026-01-01T00:00:00Z' + g * interval '1 second',
             jsonb_build_object('plantId', 'plt_' || lpad(g::text, 26, '0'), 'commonName', 'Tomato ' || g,
                                'note', repeat('x', 80))
      from generate_series(1, ${EVENTS}) g`);
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
  });

  it('sends every event while the memory in use stays flat', async () => {
    gc();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    let peakRss = before.rss;
    const sample = () => {
      gc();
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    };
    const timer = setInterval(sample, 500);
    const result = await new Promise<{ status: number; bytes: number; lines: number; tail: string }>(
      (resolve, reject) => {
        const req = get(`${base}/api/transparency/export?format=csv`, {
          headers: { authorization: `Bearer ${token}` },
        });
        req.on('response', (res) => {
          let bytes = 0;
          let lines = 0;
          let tail = '';
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines += 1;
            // Only the end is kept, to read the last event.
            tail = (tail + chunk.subarray(-300).toString('latin1')).slice(-300);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines, tail }));
          res.on('error', reject);
        });
        req.on('error', reject);
      },
    );
    clearInterval(timer);
    sample();
    const heapGrowthMb = (peakHeap - before.heapUsed) / MB;
    const rssGrowthMb = (peakRss - before.rss) / MB;
    console.info(
      `export of ${EVENTS} events: ${(result.bytes / MB).toFixed(0)} MB sent; heap growth ${heapGrowthMb.toFixed(1)} MB, ` +
        `RSS growth ${rssGrowthMb.toFixed(1)} MB`,
    );
    expect(result.status).toBe(200);
    expect(result.lines).toBe(EVENTS + 1);
    const last = result.tail.trimEnd().split('\r\n').at(-1) ?? '';
    expect(last.startsWith(`${EVENTS},evt_${String(EVENTS).padStart(26, '0')},plant.registered,`)).toBe(true);
    // The document is several times larger than the bound: had it been held in memory, the heap would show it.
    expect(result.bytes / MB).toBeGreaterThan(200);
    expect(heapGrowthMb).toBeLessThan(100);
    expect(rssGrowthMb).toBeLessThan(150);
  }, 120_000);
});
