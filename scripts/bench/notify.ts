import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNatsBus } from '@rootline/bus';
import { newId, plantRegistered, userRegistered } from '@rootline/contracts';
import { openDatabase } from '@rootline/db';
import { createLogger, startService } from '@rootline/host';
import { service as notify } from '@rootline/notify';
import postgres from 'postgres';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { sleep } from './lib/scope.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** People, and plant events per person (each gives one in-app notification and one email). */
const PEOPLE = 200;
const EVENTS_PER_PERSON = 10;

const READING =
  'Reading: events are applied in batches (one transaction, so one commit, per batch) but each still costs three statements, so the consumer is bound by PostgreSQL round trips; the sender is slower because it handles its claimed rows one after the other (a recipient read, rendering, the file write and the `sent` mark each), while competing with the consumer for the same database. Sending concurrently within a claimed batch is the next step if email volume needs it; several notify instances already share the work (the claim skips locked rows).';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

/**
 * Events to notifications: `EVENTS_PER_PERSON × PEOPLE` plant.registered events published at once to one notify
 * instance on a private nats-server and PostgreSQL, with the plant email switched on for everyone, and emails
 * written as .eml files (no SMTP). Measures events applied per second (inbox, preferences, in-app row, delivery
 * row: one transaction each) and emails sent per second by the delivery sender.
 */
export const notifyBench: Benchmark = {
  name: 'notify',
  title: 'Notify: events to notifications and emails',
  timeLimitSeconds: () => 900,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const infra = await startBenchInfra(ctx);
    const dataDir = await mkdtemp(join(tmpdir(), 'rootline-bench-notify-'));
    ctx.scope.defer(() => rm(dataDir, { recursive: true, force: true }));
    const database = await openDatabase({ url: infra.db.url, dataDir });
    ctx.scope.defer(() => database.close());
    const bus = await createNatsBus({ url: infra.nats.url, name: 'notify' });
    ctx.scope.defer(() => bus.close());
    const env = { DATA_DIR: dataDir, NOTIFY_POLL_MS: '20', JWT_SECRET: 'b'.repeat(32) };
    const running = await startService(notify, { bus, database, log: createLogger('bench', 'silent'), env });
    ctx.scope.defer(() => running.stop());
    const client = await createNatsBus({ url: infra.nats.url, name: 'bench-client' });
    ctx.scope.defer(() => client.close());
    const pg = postgres(infra.db.url, { max: 1, onnotice: () => {} });
    ctx.scope.defer(() => pg.end());
    const count = async (q: Promise<{ n: number }[]>) => (await q)[0]?.n ?? 0;
    const publish = (subject: string, payload: object) =>
      client.publish({
        id: newId('evt', Date.now()),
        subject,
        occurredAt: new Date().toISOString(),
        payload,
        headers: { 'x-request-id': newId('req', Date.now()) },
      });

    ctx.log(`registering ${PEOPLE} people`);
    const people = Array.from({ length: PEOPLE }, (_, i) => `usr_bench${i}`);
    for (const u of people) {
      await publish(userRegistered.subject, {
        userId: u,
        email: `${u}@example.org`,
        name: u,
        method: 'password',
        registeredAt: new Date().toISOString(),
      });
    }
    await until(
      'welcome emails',
      async () => (await count(pg`select count(*)::int as n from notify.deliveries where status = 'sent'`)) === PEOPLE,
    );
    await pg`insert into notify.preferences (user_id, type, channel, enabled, updated_at)
          select user_id, 'plant-registered', 'email', true, now() from notify.recipients`;

    const total = PEOPLE * EVENTS_PER_PERSON;
    ctx.log(`publishing ${total} plant.registered events`);
    const t0 = performance.now();
    for (let e = 0; e < EVENTS_PER_PERSON; e++) {
      await Promise.all(
        people.map((u, i) =>
          publish(plantRegistered.subject, { plantId: `plt_b${e}_${i}`, commonName: 'Bench basil', ownerId: u }),
        ),
      );
    }
    const published = performance.now();
    const notifications = () =>
      pg<{ n: number }[]>`select count(*)::int as n from notify.notifications where type = 'plant-registered'`;
    await until('notifications', async () => (await count(notifications())) === total);
    const applied = performance.now();
    const sent = () =>
      pg<
        { n: number }[]
      >`select count(*)::int as n from notify.deliveries where status = 'sent' and type = 'plant-registered'`;
    await until('emails', async () => (await count(sent())) === total);
    const done = performance.now();
    const files = (await readdir(join(dataDir, 'mail'))).filter((f) => f.endsWith('.eml')).length;
    if (files !== total + PEOPLE) throw new Error(`${files} .eml files, expected ${total + PEOPLE}`);

    const load = fmt(loadavg()[0] ?? 0, 2);
    const table: Table = {
      head: ['stage', 'items', 'seconds', 'per second', 'load avg'],
      rows: [
        [
          'publish events (one client)',
          fmt(total),
          fmt((published - t0) / 1000, 2),
          fmt(total / ((published - t0) / 1000)),
          load,
        ],
        [
          'events applied (in-app + delivery row)',
          fmt(total),
          fmt((applied - t0) / 1000, 2),
          fmt(total / ((applied - t0) / 1000)),
          load,
        ],
        [
          'emails sent to .eml files (from first event)',
          fmt(total),
          fmt((done - t0) / 1000, 2),
          fmt(total / ((done - t0) / 1000)),
          load,
        ],
      ],
    };
    const markdown = [
      `${fmt(total)} \`plant.registered\` events (${EVENTS_PER_PERSON} for each of ${PEOPLE} people, plant email ` +
        'switched on for all) published at once to one notify instance on a private nats-server and PostgreSQL; ' +
        'events are applied in batches of up to 50 per inbox transaction, four batches at a time (ADR 066: the inbox ' +
        'rows in one statement, then per event a preferences read, the in-app row and the delivery row) ' +
        'and each delivery rendered and written as an .eml file by the sender (batches of 20 claimed rows). ' +
        `All ${fmt(total)} notifications and .eml files were counted before the figures were taken. The load ` +
        'average (1 min) is the machine’s, shared with other work.',
      '',
      markdownTable(table),
      '',
      READING,
    ].join('\n');
    return { text: textTable(table), markdown };
  },
};
