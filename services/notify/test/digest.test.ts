import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bus, createNatsBus } from '@rootline/bus';
import { newId, notificationPreferencesUpdate, plantRegistered, userRegistered } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import { call, createLogger, type RunningService, startService } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service } from '../src/service.js';

/** Two notify instances on one database and bus, sharing a clock the test moves. */
describe('weekly digest with two instances', () => {
  let infra: TestInfra;
  let database: Database;
  let client: Bus;
  let dataDir: string;
  const buses: Bus[] = [];
  const instances: RunningService[] = [];
  let now = new Date('2026-11-18T10:00:00Z'); // a Wednesday
  const clock = { now: () => new Date(now) };

  const publish = (subject: string, payload: object) =>
    client.publish({
      id: newId('evt', Date.now()),
      subject,
      occurredAt: now.toISOString(),
      payload,
      headers: { 'x-request-id': newId('req', Date.now()) },
    });
  const digestFiles = async () => {
    const folder = join(dataDir, 'mail');
    const names = (await readdir(folder).catch(() => [])).filter((f) => f.endsWith('.eml'));
    const texts = await Promise.all(names.map((f) => readFile(join(folder, f), 'utf8')));
    return texts.filter((t) => t.includes('Subject: Your week on Rootline'));
  };

  beforeAll(async () => {
    infra = await startTestInfra();
    dataDir = await mkdtemp(join(tmpdir(), 'notify-digest-'));
    database = await openDatabase({ url: infra.pg.url, dataDir });
    const env = { DATA_DIR: dataDir, NOTIFY_POLL_MS: '50', DIGEST_POLL_MS: '50', JWT_SECRET: 'j'.repeat(32) };
    for (const name of ['a', 'b']) {
      const bus = await createNatsBus({ url: infra.nats.url, name: `notify-${name}` });
      buses.push(bus);
      instances.push(await startService(service, { bus, database, log: createLogger('notify', 'silent'), clock, env }));
    }
    client = await createNatsBus({ url: infra.nats.url, name: 'test-client' });
    // Three people; two of them register plants this week; one of those turns the digest email off.
    for (const u of ['usr_d1', 'usr_d2', 'usr_d3']) {
      await publish(userRegistered.subject, {
        userId: u,
        email: `${u}@example.org`,
        name: u,
        method: 'password',
        registeredAt: now.toISOString(),
      });
    }
    await publish(plantRegistered.subject, { plantId: 'plt_d1a', commonName: 'Kale', ownerId: 'usr_d1' });
    await publish(plantRegistered.subject, { plantId: 'plt_d1b', commonName: 'Leek', ownerId: 'usr_d1' });
    await publish(plantRegistered.subject, { plantId: 'plt_d2', commonName: 'Chard', ownerId: 'usr_d2' });
    await publish(plantRegistered.subject, { plantId: 'plt_d3', commonName: 'Okra', ownerId: 'usr_d3' });
    await call(
      client,
      notificationPreferencesUpdate,
      { 'weekly-digest': { email: false } },
      { requestId: 'req_pref', actor: { id: 'usr_d3', role: 'USER' } },
    );
  });
  afterAll(async () => {
    for (const s of instances.reverse()) await s.stop();
    for (const b of buses) await b.close();
    await client?.close();
    await database?.close();
    await infra?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('sends each person with news one digest for the week, however many instances run', async () => {
    await expect
      .poll(async () => {
        const [row] = (await database.db.execute(
          sql`select count(*)::int as n from notify.notifications where type = 'plant-registered'`,
        )) as unknown as { n: number }[];
        return row?.n;
      })
      .toBe(4);
    now = new Date('2026-11-23T08:00:00Z'); // the Monday after
    await expect.poll(digestFiles, { timeout: 10_000 }).toHaveLength(2);
    const mails = await digestFiles();
    expect(mails.find((m) => m.includes('To: usr_d1@example.org'))).toContain('- 2 plants registered');
    expect(mails.find((m) => m.includes('To: usr_d2@example.org'))).toContain('- 1 plant registered');
    // The week before the test (made at start, nobody had news) and this one: three had news, one opted out.
    const runs = (await database.db.execute(
      sql`select week_start, recipients from notify.digest_runs order by week_start`,
    )) as unknown as { week_start: string; recipients: number }[];
    expect(runs).toEqual([
      { week_start: '2026-11-09', recipients: 0 },
      { week_start: '2026-11-16', recipients: 3 },
    ]);
    // Polls of both instances go on; nothing more is sent for that week.
    const rounds = (await database.db.execute(
      sql`select count(*)::int as n from notify.deliveries where template = 'weekly-digest'`,
    )) as unknown as { n: number }[];
    expect(rounds[0]?.n).toBe(2);
  });

  it('makes the next week’s digest a week later, only for those with news that week', async () => {
    await publish(plantRegistered.subject, { plantId: 'plt_d2b', commonName: 'Fennel', ownerId: 'usr_d2' });
    await expect
      .poll(async () => {
        const [row] = (await database.db.execute(
          sql`select count(*)::int as n from notify.notifications where type = 'plant-registered'`,
        )) as unknown as { n: number }[];
        return row?.n;
      })
      .toBe(5);
    now = new Date('2026-11-30T08:00:00Z');
    await expect.poll(digestFiles, { timeout: 10_000 }).toHaveLength(3);
    const runs = (await database.db.execute(
      sql`select week_start, recipients from notify.digest_runs order by week_start`,
    )) as unknown as { week_start: string; recipients: number }[];
    expect(runs.slice(1)).toEqual([
      { week_start: '2026-11-16', recipients: 3 },
      { week_start: '2026-11-23', recipients: 1 },
    ]);
  });
});
