import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bus, createNatsBus } from '@rootline/bus';
import { type Database, openDatabase } from '@rootline/db';
import {
  createLogger,
  type RunningService,
  type ServiceContext,
  startService,
  systemClock,
  unscrapedMetrics,
} from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service } from '../src/service.js';
import { recordNotice } from '../src/subscribers/dispatch.js';

/**
 * The unique keys behind the inbox: an event applied again (a replay the inbox did not catch, or two notices of one
 * event for the same person) still gives one in-app row and one delivery per channel.
 */
describe('one notification and one delivery per event, person and channel', () => {
  let infra: TestInfra;
  let database: Database;
  let bus: Bus;
  let notify: RunningService;
  let dataDir: string;

  beforeAll(async () => {
    infra = await startTestInfra();
    dataDir = await mkdtemp(join(tmpdir(), 'notify-once-'));
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    bus = await createNatsBus({ url: infra.nats.url, name: 'notify' });
    // Started for its migrations (its sender may send what the test records: the rows are counted, not their state).
    notify = await startService(service, {
      bus,
      database,
      log: createLogger('notify', 'silent'),
      env: { DATA_DIR: dataDir, NOTIFY_POLL_MS: '60000', JWT_SECRET: 'j'.repeat(32) },
    });
  });
  afterAll(async () => {
    await notify?.stop();
    await bus?.close();
    await database?.close();
    await infra?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('ignores the second application of the same event', async () => {
    const ctx = { clock: systemClock, metrics: unscrapedMetrics('notify') } as unknown as ServiceContext;
    const template = {
      name: 'demand-match',
      params: { matchId: 'mtc_1', crop: 'kale', quantityKg: 1, distanceKm: 2, side: 'grower' },
    } as const;
    for (let i = 0; i < 2; i++) {
      await database.db.transaction((tx) => recordNotice(ctx, tx, 'evt_once', 'usr_once', template, {}));
    }
    const rows = (await database.db.execute(sql`
      select (select count(*)::int from notify.notifications where user_id = 'usr_once') as in_app,
             (select count(*)::int from notify.deliveries where user_id = 'usr_once' and channel = 'email') as email
    `)) as unknown as { in_app: number; email: number }[];
    expect(rows).toEqual([{ in_app: 1, email: 1 }]);
  });
});
