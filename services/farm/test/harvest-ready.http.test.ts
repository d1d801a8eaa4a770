import { createNatsBus } from '@rootline/bus';
import { harvestReady } from '@rootline/contracts';
import { claimScheduledJob, ensureScheduledJob, readScheduledJob } from '@rootline/db';
import { collectEvents } from '@rootline/gateway/testing';
import { createLogger, type RunningService, startService } from '@rootline/host';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.js';
import { HARVEST_READY_JOB } from '../src/jobs/harvest-ready.js';
import { service as farm } from '../src/service.js';
import { expectStatus, farmWithZone, startFarmPlatform, type TestPlatform } from './support.js';

const ENV = { HARVEST_READY_POLL_MS: '100', HARVEST_READY_INTERVAL_SECONDS: '1' };

describe('the harvest-ready job across two replicas', () => {
  let p: TestPlatform;
  let replica: RunningService;
  let closeReplicaBus: () => Promise<void>;

  beforeAll(async () => {
    p = await startFarmPlatform(ENV);
    // A second farm replica on the same database, with its own bus connection, as a second process would have.
    const bus = await createNatsBus({ url: p.infra.nats.url, name: 'farm' });
    closeReplicaBus = () => bus.close();
    replica = await startService(farm, { bus, database: p.database, log: createLogger('farm', 'silent'), env: ENV });
  });
  afterAll(async () => {
    await replica?.stop();
    await closeReplicaBus?.();
    await p?.stop();
  });

  it('announces each batch whose expected harvest date has come exactly once', async () => {
    const events = await collectEvents(p.bus, harvestReady);
    const { farmId, zoneId } = await farmWithZone(p);
    const ids: string[] = [];
    for (const variety of ['Rex', 'Skyphos', 'Rouxai']) {
      const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
        body: {
          farmId,
          zoneId,
          recipeId: 'rcp_lettuce0butterhead01',
          crop: 'lettuce',
          variety,
          plantCount: 10,
          seedSource: { type: 'seed-lot', seedLot: `lot-${variety}` },
        },
      });
      ids.push(res.body.data.id);
    }
    const [due, alsoDue, notYet] = ids as [string, string, string];
    // Time travel for two of them: their 35 days are over.
    await p.database.db.execute(
      sql`update farm.batches set started_at = now() - interval '40 days', expected_harvest_at = now() - interval '5 days' where id in (${due}, ${alsoDue})`,
    );
    await events.next((e) => e.batchId === due, 10_000);
    await events.next((e) => e.batchId === alsoDue, 10_000);
    const batch = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${due}`, { role: 'USER' });
    expect(batch.body.data.state).toBe('ready');
    // Several more runs, by either replica, announce nothing again.
    const runs = async () => (await readScheduledJob(p.database.db, jobs, HARVEST_READY_JOB))?.runs ?? 0;
    const before = await runs();
    await expect.poll(() => runs(), { timeout: 15_000 }).toBeGreaterThan(before + 2);
    const announced = events.payloads.filter((e) => ids.includes(e.batchId)).map((e) => e.batchId);
    expect(announced.sort()).toEqual([due, alsoDue].sort());
    expect(announced).not.toContain(notYet);
    expect(events.payloads.find((e) => e.batchId === due)).toMatchObject({ farmId, crop: 'lettuce' });
    await events.stop();
  });

  it('announces a batch recorded as started before its cycle, with the expected harvest date its start gives', async () => {
    const events = await collectEvents(p.bus, harvestReady);
    const { farmId, zoneId } = await farmWithZone(p);
    const startedAt = new Date(Date.now() - 40 * 86_400_000);
    const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
      body: {
        farmId,
        zoneId,
        recipeId: 'rcp_lettuce0butterhead01',
        crop: 'lettuce',
        variety: 'Rex',
        plantCount: 10,
        seedSource: { type: 'seed-lot', seedLot: 'lot-late' },
        startedAt: startedAt.toISOString(),
      },
    });
    const expected = new Date(startedAt.getTime() + 35 * 86_400_000).toISOString();
    expect(res.body.data).toMatchObject({ state: 'ready', expectedHarvestAt: expected });
    const event = await events.next((e) => e.batchId === res.body.data.id, 10_000);
    expect(event).toMatchObject({ farmId, crop: 'lettuce', expectedHarvestAt: expected });
    await events.stop();
  });

  it('lets one of several concurrent claims of a due run win, and a stale claim be taken over', async () => {
    const db = p.database.db;
    const now = new Date();
    await ensureScheduledJob(db, jobs, 'probe', now);
    const claims = await Promise.all([1, 2, 3, 4].map(() => claimScheduledJob(db, jobs, 'probe', now, new Date(0))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    // The winner died: once its claim is older than the timeout, another replica takes the run over.
    expect(await claimScheduledJob(db, jobs, 'probe', now, new Date(now.getTime() + 1))).toBe(true);
  });
});
