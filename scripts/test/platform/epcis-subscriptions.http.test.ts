import { createHmac, generateKeyPairSync } from 'node:crypto';
import { createNatsBus } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { epcisEventId } from '@rootline/domain';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, startService } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { plantInput, startWebhookReceiver, type WebhookReceiver } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import { service as transport } from '@rootline/transport';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const UTRECHT = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const ADA = { id: 'usr_ada', name: 'Ada Grower' };
const SECRET = 'the-partner-shared-secret-0123456789';

/** What `dest` receives: the bare EPCISQueryDocument (as GS1's REST binding sends it), signed. */
interface Result {
  type: string;
  schemaVersion: string;
  epcisBody: { queryResults: { queryName: string; subscriptionID: string; resultsBody: { eventList: Ev[] } } };
}
interface Ev {
  eventID: string;
  bizStep: string;
  eventTime: string;
}

async function until<T>(get: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} never happened`);
}

describe('EPCIS 2.0 query subscriptions over HTTP, delivered by signed webhooks on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let r: WebhookReceiver;
  let ada: string;
  let bo: string;
  let plantId: string;

  const record = async (kind: string, day: string) => {
    const res = await p.http('POST', `/api/transport/${kind}`, {
      token: ada,
      body: {
        plantId,
        eventTime: `2026-06-${day}T09:00:00+02:00`,
        handler: ADA,
        from: AMSTERDAM,
        to: UTRECHT,
        transportMode: 'cargo-bike',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return epcisEventId(res.body.data.id as string);
  };
  /** The deliveries the receiver got, verified with the subscription's secret as a Standard Webhooks client does. */
  const verified = (secret: string): Result[] =>
    r.got.map((g) => new Webhook(secret).verify(g.body, g.headers as Record<string, string>) as Result);

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    p = await startTestPlatform([chainMiner, plants, transport, transparency], {
      CHAIN_DIFFICULTY: '8',
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      EPCIS_SCHEDULE_POLL_MS: '200',
      LOG_LEVEL: 'error',
    });
    r = await startWebhookReceiver();
    ada = await p.token('GROWER', ADA.id, ADA.name);
    bo = await p.token('USER', 'usr_bo', 'Bo Other');
    const plant = await p.http('POST', '/api/plants/register', {
      token: ada,
      body: plantInput({ owner: ADA, location: AMSTERDAM }),
    });
    expect(plant.status, JSON.stringify(plant.body)).toBe(201);
    plantId = plant.body.data.id;
    const named = await p.http('POST', '/api/epcis/queries', {
      token: ada,
      body: { name: 'shipments', query: { EQ_bizStep: 'shipping' } },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await r?.stop();
    await p?.stop();
  });

  it('streams each new matching event, after the initial records, signed for the subscription’s webhook; not the others', async () => {
    const earlier = await record('distribution', '01');
    const made = await p.http('POST', '/api/epcis/queries/shipments/subscriptions', {
      token: ada,
      body: { dest: r.url, signatureToken: SECRET, stream: true, initialRecordTime: '2026-01-01T00:00:00Z' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sub = made.body as { subscriptionID: string; webhookId: string; signingSecret: string };
    expect(sub.subscriptionID).toMatch(/^sub_/);
    expect(made.headers.get('location')).toBe(`/api/epcis/queries/shipments/subscriptions/${sub.subscriptionID}`);
    expect(made.body).toMatchObject({ queryName: 'shipments', dest: r.url, stream: true, reportIfEmpty: false });
    expect(Buffer.from(sub.signingSecret.slice(6), 'base64').toString()).toBe(SECRET);

    // The initial records: what matched since initialRecordTime, as one EPCISQueryDocument.
    const initial = await until(() => verified(sub.signingSecret)[0], 'the initial records');
    expect(initial.type).toBe('EPCISQueryDocument');
    expect(initial.schemaVersion).toBe('2.0');
    // GS1-Signature: the HMAC-SHA256 of the body bytes keyed by the signatureToken.
    const first = r.got[0]!;
    expect((first.headers as Record<string, string>)['gs1-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(first.body).digest('hex')}`,
    );
    expect(initial.epcisBody.queryResults).toMatchObject({
      queryName: 'shipments',
      subscriptionID: sub.subscriptionID,
    });
    expect(initial.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID)).toEqual([earlier]);

    // A new event the query does not match (growing: transporting), then one it matches (distribution: shipping).
    const growing = await record('growing', '02');
    const shipped = await record('distribution', '03');
    const streamed = await until(
      () =>
        verified(sub.signingSecret).find((d) =>
          d.epcisBody.queryResults.resultsBody.eventList.some((e) => e.eventID === shipped),
        ),
      'the delivery of the new shipment',
    );
    expect(streamed.epcisBody.queryResults.resultsBody.eventList).toMatchObject([
      { eventID: shipped, bizStep: 'shipping', eventTime: '2026-06-03T09:00:00+02:00' },
    ]);
    // Events are matched in the order they were recorded: the growing event was taken before the shipment came.
    const all = verified(sub.signingSecret).flatMap((d) => d.epcisBody.queryResults.resultsBody.eventList);
    expect(all.map((e) => e.eventID)).not.toContain(growing);
    expect(all.map((e) => e.eventID).sort()).toEqual([earlier, shipped].sort());
    // A body altered on the way fails the signature check.
    const last = r.got.at(-1);
    expect(() =>
      new Webhook(sub.signingSecret).verify(`${last?.body} `, last?.headers as Record<string, string>),
    ).toThrow();

    // The subscription's webhook is the account's, with the delivery log of every webhook.
    const deliveries = await p.http('GET', `/api/transparency/webhooks/${sub.webhookId}/deliveries`, { token: ada });
    expect(deliveries.status, JSON.stringify(deliveries.body)).toBe(200);
    expect((deliveries.body.data as { kind: string; status: string }[]).map((d) => d.kind)).toEqual([
      'epcis.query-result',
      'epcis.query-result',
    ]);

    const list = await p.http('GET', '/api/epcis/queries/shipments/subscriptions', { token: ada });
    expect(list.status).toBe(200);
    expect((list.body as { subscriptionID: string }[]).map((s) => s.subscriptionID)).toEqual([sub.subscriptionID]);
    const one = await p.http('GET', `/api/epcis/queries/shipments/subscriptions/${sub.subscriptionID}`, {
      token: ada,
    });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ subscriptionID: sub.subscriptionID, webhookId: sub.webhookId });
    expect(JSON.stringify(one.body)).not.toContain('whsec_');

    // Its webhook takes the subscription's results alone: its kinds cannot be changed.
    const widened = await p.http('PATCH', `/api/transparency/webhooks/${sub.webhookId}`, {
      token: ada,
      body: { events: ['plant.registered'] },
    });
    expect(widened.status).toBe(400);

    // Another account sees none of it.
    const other = await p.http('GET', `/api/epcis/queries/shipments/subscriptions/${sub.subscriptionID}`, {
      token: bo,
    });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ type: 'epcisException:NoSuchResourceException' });

    // Deleting the subscription deletes its webhook: nothing more is sent.
    const gone = await p.http('DELETE', `/api/epcis/queries/shipments/subscriptions/${sub.subscriptionID}`, {
      token: ada,
    });
    expect(gone.status).toBe(204);
    expect((await p.http('GET', `/api/transparency/webhooks/${sub.webhookId}`, { token: ada })).status).toBe(404);
    const before = r.got.length;
    const after = await record('distribution', '04');
    await new Promise((done) => setTimeout(done, 1500));
    expect(r.got.length).toBe(before);
    expect(r.got.some((g) => g.body.includes(after))).toBe(false);
  }, 60_000);

  it('refuses what it does not offer in the standard’s error model, and a deleted query takes its subscriptions', async () => {
    const post = (name: string, body: unknown, token = ada) =>
      p.http('POST', `/api/epcis/queries/${name}/subscriptions`, { token, body });

    // Schedules the standard refuses, and a subscription both streamed and scheduled.
    for (const [schedule, detail] of [
      [{ hour: '24' }, 'schedule.hour: 24 is outside 0 to 23'],
      [{ minute: '[30-10]' }, 'schedule.minute: the range [30-10] runs backwards'],
      [{ second: '*/5' }, 'schedule.second: "*/5" is neither a number nor a range [low-high]'],
      [{ dayOfMonth: '31', month: '2' }, 'schedule: no day matches its dayOfMonth, month and dayOfWeek together'],
    ] as const) {
      const refused = await post('shipments', { dest: r.url, schedule });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ type: 'epcisException:SubscriptionControlsException', detail });
    }
    const both = await post('shipments', { dest: r.url, stream: true, schedule: { hour: '6' } });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ type: 'epcisException:SubscriptionControlsException' });

    const neither = await post('shipments', { dest: r.url });
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ type: 'epcisException:SubscriptionControlsException', status: 400 });
    const badDest = await post('shipments', { dest: 'ftp://example.org/x', stream: true });
    expect(badDest.status).toBe(400);
    expect(badDest.body).toMatchObject({ type: 'epcisException:SubscriptionControlsException' });
    const unknown = await post('no-such-query', { dest: r.url, stream: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ type: 'epcisException:NoSuchResourceException' });
    const others = await post('shipments', { dest: r.url, stream: true }, bo);
    expect(others.status).toBe(404);
    expect((await p.http('POST', '/api/epcis/queries/shipments/subscriptions', { body: { dest: r.url } })).status).toBe(
      401,
    );

    const made = await post('shipments', { dest: r.url, stream: true });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { webhookId, signingSecret } = made.body as { webhookId: string; signingSecret: string };
    expect(signingSecret).toMatch(/^whsec_/);
    expect((await p.http('GET', `/api/transparency/webhooks/${webhookId}`, { token: ada })).status).toBe(200);
    expect((await p.http('DELETE', '/api/epcis/queries/shipments', { token: ada })).status).toBe(204);
    expect((await p.http('GET', `/api/transparency/webhooks/${webhookId}`, { token: ada })).status).toBe(404);
    expect((await p.http('GET', '/api/epcis/queries/shipments/subscriptions', { token: ada })).status).toBe(404);
  }, 60_000);
  /** The results of one subscription the receiver got, in order, each verified with its secret. */
  const resultsOf = (subscriptionID: string, secret: string): Result[] =>
    r.got
      .filter((g) => (JSON.parse(g.body) as Result).epcisBody.queryResults.subscriptionID === subscriptionID)
      .map((g) => new Webhook(secret).verify(g.body, g.headers as Record<string, string>) as Result);
  const eventsOf = (results: Result[]) =>
    results.flatMap((d) => d.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID));
  const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
  const named = async (name: string, query: Record<string, string>) => {
    const res = await p.http('POST', '/api/epcis/queries', { token: ada, body: { name, query } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  const subscribe = async (name: string, body: Record<string, unknown>) => {
    const res = await p.http('POST', `/api/epcis/queries/${name}/subscriptions`, {
      token: ada,
      body: { dest: r.url, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { subscriptionID: string; signingSecret: string; nextDueAt: string; webhookId: string };
  };

  it('a schedule due every second sends the events recorded since the previous delivery, each once, and no empty result without reportIfEmpty', async () => {
    await named('shipped-each-second', { EQ_bizStep: 'shipping' });
    const before = await record('distribution', '10');
    const sub = await subscribe('shipped-each-second', { schedule: { second: '[0-59]' } });
    expect(sub).toMatchObject({ stream: false, schedule: { second: '[0-59]' }, reportIfEmpty: false });
    expect(Date.parse(sub.nextDueAt) - Date.now()).toBeLessThanOrEqual(1000);

    const first = await record('distribution', '11');
    await record('growing', '12');
    await until(
      () => (eventsOf(resultsOf(sub.subscriptionID, sub.signingSecret)).includes(first) ? true : undefined),
      'the first scheduled result',
    );
    const second = await record('distribution', '13');
    await until(
      () => (eventsOf(resultsOf(sub.subscriptionID, sub.signingSecret)).includes(second) ? true : undefined),
      'the second scheduled result',
    );
    await sleep(2500); // Two more due times with nothing new.

    const results = resultsOf(sub.subscriptionID, sub.signingSecret);
    // Each event once, in a delivery after the one before; the one recorded before the subscription never.
    expect(eventsOf(results)).toEqual([first, second]);
    expect(eventsOf(results)).not.toContain(before);
    expect(results.length).toBe(2);
    for (const res of results) {
      expect(res.type).toBe('EPCISQueryDocument');
      expect(res.epcisBody.queryResults).toMatchObject({ queryName: 'shipped-each-second' });
      expect(res.epcisBody.queryResults.resultsBody.eventList.length).toBeGreaterThan(0);
    }
    const stored = await p.http('GET', `/api/epcis/queries/shipped-each-second/subscriptions/${sub.subscriptionID}`, {
      token: ada,
    });
    expect(Date.parse(stored.body.nextDueAt as string)).toBeGreaterThan(Date.parse(sub.nextDueAt));
    expect((await p.http('DELETE', '/api/epcis/queries/shipped-each-second', { token: ada })).status).toBe(204);
  }, 60_000);

  it('with reportIfEmpty, a due time with nothing new sends an empty result; initialRecordTime fills the first', async () => {
    await named('shipped-report', { EQ_bizStep: 'shipping' });
    const earlier = await record('distribution', '14');
    const sub = await subscribe('shipped-report', {
      schedule: { second: '[0-59]' },
      reportIfEmpty: true,
      initialRecordTime: '2026-01-01T00:00:00Z',
    });
    const results = await until(() => {
      const got = resultsOf(sub.subscriptionID, sub.signingSecret);
      return got.length >= 3 ? got : undefined;
    }, 'three scheduled results');
    // The first holds what was recorded since initialRecordTime; the next ones, nothing new, are empty.
    expect(results[0]!.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID)).toContain(earlier);
    expect(results[1]!.epcisBody.queryResults.resultsBody.eventList).toEqual([]);
    expect(results[2]!.epcisBody.queryResults.resultsBody.eventList).toEqual([]);
    expect(new Set(eventsOf(results)).size).toBe(eventsOf(results).length);
    expect((await p.http('DELETE', '/api/epcis/queries/shipped-report', { token: ada })).status).toBe(204);
  }, 60_000);

  it('two transport replicas deliver each due time once', async () => {
    const bus = await createNatsBus({
      url: p.infra.nats.url,
      name: 'transport',
      log: { info() {}, warn() {}, error() {} },
    });
    const replica = await startService(transport, {
      bus,
      database: p.database,
      log: createLogger('test', 'silent'),
      env: { EPCIS_SCHEDULE_POLL_MS: '100' },
    });
    try {
      await named('shipped-two-replicas', { EQ_bizStep: 'shipping' });
      const sub = await subscribe('shipped-two-replicas', { schedule: { second: '[0-59]' }, reportIfEmpty: true });
      await until(
        () => (resultsOf(sub.subscriptionID, sub.signingSecret).length >= 4 ? true : undefined),
        'four due times',
      );
      const rows = (await p.database.db.execute(
        sql`select payload->>'deliveryKey' as key, count(*)::int as n from transport.outbox
            where subject = 'evt.transport.epcis-subscription.matched' and payload->>'subscriptionID' = ${sub.subscriptionID}
            group by 1`,
      )) as unknown as { key: string; n: number }[];
      expect(rows.length).toBeGreaterThanOrEqual(4);
      expect(rows.filter((row) => row.n !== 1)).toEqual([]);
      // Each due time is one delivery: one webhook message per key.
      const ids = r.got
        .filter((g) => g.body.includes(sub.subscriptionID))
        .map((g) => (g.headers as Record<string, string>)['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect((await p.http('DELETE', '/api/epcis/queries/shipped-two-replicas', { token: ada })).status).toBe(204);
    } finally {
      await replica.stop();
      await bus.close();
    }
  }, 60_000);
});
