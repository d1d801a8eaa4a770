import { generateKeyPairSync } from 'node:crypto';
import { type Actor, contextToHeaders, newId, plantRegistered } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { startWebhookReceiver, type WebhookReceiver } from '@rootline/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const dana: Actor = { id: 'usr_danamanage', role: 'GROWER' };
const eve: Actor = { id: 'usr_evemanage1', role: 'USER' };
const SECRET = 'dana-shared-secret-0123456789';
const ROTATED = 'dana-rotated-secret-9876543210';

describe('webhook management over HTTP', () => {
  let p: TestPlatform;
  let r: WebhookReceiver;

  const publish = (plantId: string, actor: Actor) =>
    p.bus.publish({
      id: newId('evt', Date.now()),
      subject: plantRegistered.subject,
      occurredAt: new Date().toISOString(),
      payload: { plantId, commonName: 'Chard', ownerId: actor.id },
      headers: contextToHeaders({ requestId: newId('req', Date.now()), actor }),
    });
  const as = (a: Actor) => ({ role: a.role, sub: a.id });
  const create = async (owner: Actor, url: string, secret = SECRET) => {
    const made = await p.http('POST', '/api/webhooks', {
      ...as(owner),
      body: { url, events: ['plant.registered'], secret },
    });
    expect(made.status).toBe(201);
    return made.body.data.id as string;
  };
  const deliveries = async (id: string, owner: Actor) =>
    (await p.http('GET', `/api/transparency/webhooks/${id}/deliveries?limit=100`, as(owner))).body.data as {
      id: string;
      status: string;
      attempts: number;
    }[];

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '50',
      // 5 s, 5 min, 30 min, 2 h… become 1 ms, 60 ms, 360 ms, 1.4 s…
      WEBHOOK_RETRY_SCALE: '0.0002',
      // About 1.1 s of failing disables a webhook.
      WEBHOOK_DISABLE_AFTER_HOURS: '0.0003',
    });
    r = await startWebhookReceiver();
  });
  afterAll(async () => {
    await r?.stop();
    await p?.stop();
  });

  it('reads a webhook to its owner and an ADMIN only, and changes it for its owner only', async () => {
    const id = await create(dana, r.url);
    const mine = await p.http('GET', `/api/transparency/webhooks/${id}`, as(dana));
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      id,
      url: r.url,
      status: 'active',
      disabledReason: null,
      failingSince: null,
    });
    expect(JSON.stringify(mine.body)).not.toContain(SECRET);
    expect((await p.http('GET', `/api/transparency/webhooks/${id}`, as(eve))).status).toBe(403);
    expect(
      (await p.http('GET', `/api/transparency/webhooks/${id}`, { role: 'ADMIN', sub: 'usr_admin0001' })).status,
    ).toBe(200);
    expect((await p.http('GET', '/api/transparency/webhooks/whk_doesnotexist01', as(dana))).status).toBe(404);

    const patch = (who: { role: Actor['role']; sub: string }, body: unknown) =>
      p.http('PATCH', `/api/transparency/webhooks/${id}`, { ...who, body });
    expect((await patch(as(eve), { secret: ROTATED })).status).toBe(403);
    expect((await patch({ role: 'ADMIN', sub: 'usr_admin0001' }, { secret: ROTATED })).status).toBe(403);
    const empty = await patch(as(dana), {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
    const unknown = await patch(as(dana), { events: ['plant.exploded'] });
    expect(unknown.status).toBe(400);
    // An enum in the contract: the answer names the field and lists the kinds it accepts.
    expect(unknown.body.error.details[0]).toMatchObject({ field: 'body/events/0' });
    expect(unknown.body.error.details[0].allowed).toContain('plant.registered');
    expect((await patch(as(dana), { url: 'ftp://example.org' })).status).toBe(400);

    const changed = await patch(as(dana), { secret: ROTATED, events: ['plant.registered', 'listing.sold'] });
    expect(changed.status).toBe(200);
    expect(changed.body.data.events).toEqual(['plant.registered', 'listing.sold']);

    // The test delivery is signed with the rotated secret, no longer with the old one.
    const tested = await p.http('POST', `/api/transparency/webhooks/${id}/test`, as(dana));
    expect(tested.status).toBe(200);
    expect(tested.body.data).toMatchObject({ kind: 'webhook.test', delivered: true, httpStatus: 200, error: null });
    const got = r.state.got.find((g) => g.headers['webhook-id'] === tested.body.data.deliveryId);
    expect(got).toBeDefined();
    const verified = new Webhook(ROTATED, { format: 'raw' }).verify(got!.body, got!.headers as Record<string, string>);
    expect(verified).toMatchObject({ event: 'webhook.test', data: { webhookId: id } });
    expect(() =>
      new Webhook(SECRET, { format: 'raw' }).verify(got!.body, got!.headers as Record<string, string>),
    ).toThrow();
    expect((await p.http('POST', `/api/transparency/webhooks/${id}/test`, as(eve))).status).toBe(403);
  });

  it('answers the outcome of a test delivery the receiver refuses', async () => {
    const bad = await startWebhookReceiver();
    bad.state.status = 503;
    try {
      const id = await create(dana, bad.url);
      const tested = await p.http('POST', `/api/transparency/webhooks/${id}/test`, as(dana));
      expect(tested.body.data).toMatchObject({ delivered: false, httpStatus: 503, error: 'receiver answered 503' });
      expect(bad.state.got).toHaveLength(1);
      // A test is not a failure of the webhook.
      expect((await p.http('GET', `/api/transparency/webhooks/${id}`, as(dana))).body.data.failingSince).toBeNull();
    } finally {
      await bad.stop();
    }
  });

  it('redelivers a delivered event with the same webhook-id, to its owner only', async () => {
    const own = await startWebhookReceiver();
    try {
      const id = await create(eve, own.url, 'eve-shared-secret-0123456789');
      await publish('plt_everedeliv1', eve);
      await expect.poll(async () => (await deliveries(id, eve))[0]?.status, { timeout: 10_000 }).toBe('delivered');
      const [delivery] = await deliveries(id, eve);
      const url = `/api/transparency/webhooks/${id}/deliveries/${delivery!.id}/redeliver`;
      expect((await p.http('POST', url, as(dana))).status).toBe(403);
      expect(
        (await p.http('POST', `/api/transparency/webhooks/${id}/deliveries/whd_nosuchdelivery/redeliver`, as(eve)))
          .status,
      ).toBe(404);
      const again = await p.http('POST', url, as(eve));
      expect(again.status).toBe(202);
      expect(again.body.data).toMatchObject({ id: delivery!.id, status: 'pending', attempts: 0 });
      await expect.poll(() => own.state.got.length, { timeout: 10_000 }).toBe(2);
      expect(own.state.got.map((g) => g.headers['webhook-id'])).toEqual([delivery!.id, delivery!.id]);
      await expect.poll(async () => (await deliveries(id, eve))[0]?.status, { timeout: 10_000 }).toBe('delivered');
    } finally {
      await own.stop();
    }
  });

  it('disables a webhook failing for the configured time, tells its owner by an event, and enables it again', async () => {
    const down = await startWebhookReceiver();
    down.state.status = 500;
    const owner: Actor = { id: 'usr_frankfails', role: 'USER' };
    try {
      const id = await create(owner, down.url, 'frank-shared-secret-0123456789');
      await publish('plt_frankfail01', owner);
      const read = async () => (await p.http('GET', `/api/transparency/webhooks/${id}`, as(owner))).body.data;
      await expect.poll(async () => (await read()).status, { timeout: 15_000 }).toBe('disabled');
      const disabled = await read();
      expect(disabled.disabledReason).toBe('failing');
      expect(disabled.failingSince).not.toBeNull();
      expect(down.state.got.length).toBeGreaterThanOrEqual(2);
      const [delivery] = await deliveries(id, owner);
      expect(delivery).toMatchObject({ status: 'failed' });

      // The owner is told through the domain event (notify turns it into a notification); the audit log has it.
      const told = async () =>
        (
          await p.http('GET', `/api/transparency/audit?kind=evt.transparency.webhook.disabled&limit=100`, {
            role: 'ADMIN',
            sub: 'usr_admin0001',
          })
        ).body.data as { data: { webhookId: string; ownerId: string; reason: string } }[];
      await expect
        .poll(async () => (await told()).some((e) => e.data.webhookId === id), { timeout: 10_000 })
        .toBe(true);
      expect((await told()).find((e) => e.data.webhookId === id)?.data).toMatchObject({
        ownerId: owner.id,
        reason: 'failing',
        url: down.url,
      });

      const blocked = await p.http(
        'POST',
        `/api/transparency/webhooks/${id}/deliveries/${delivery!.id}/redeliver`,
        as(owner),
      );
      expect(blocked.status).toBe(409);

      // The receiver is fixed: the owner enables the webhook and redelivers what failed.
      down.state.status = 200;
      const enabled = await p.http('PATCH', `/api/transparency/webhooks/${id}`, {
        ...as(owner),
        body: { status: 'active' },
      });
      expect(enabled.body.data).toMatchObject({ status: 'active', disabledReason: null, failingSince: null });
      const redone = await p.http(
        'POST',
        `/api/transparency/webhooks/${id}/deliveries/${delivery!.id}/redeliver`,
        as(owner),
      );
      expect(redone.status).toBe(202);
      await expect.poll(async () => (await deliveries(id, owner))[0]?.status, { timeout: 10_000 }).toBe('delivered');
      expect((await read()).status).toBe('active');
    } finally {
      await down.stop();
    }
  });
  it('a webhook deleted twice at once: one 200 deleted, the other 404, and it is gone (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const id = await create(dana, r.url);
      const answers = await Promise.all([
        p.http('DELETE', `/api/transparency/webhooks/${id}`, as(dana)),
        p.http('DELETE', `/api/transparency/webhooks/${id}`, as(dana)),
      ]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, 404]);
      expect(answers.find((a) => a.status === 200)!.body.data).toEqual({ id, deleted: true });
      expect(answers.find((a) => a.status === 404)!.body.error.code).toBe('NOT_FOUND');
      expect((await p.http('GET', `/api/transparency/webhooks/${id}`, as(dana))).status).toBe(404);
    }
  });

  it('a webhook changed and deleted at once: a change answered 200 came before the delete; it is gone (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const id = await create(dana, r.url);
      const [change, del] = await Promise.all([
        p.http('PATCH', `/api/transparency/webhooks/${id}`, { ...as(dana), body: { status: 'active' } }),
        p.http('DELETE', `/api/transparency/webhooks/${id}`, as(dana)),
      ]);
      expect(del.status, `round ${round}`).toBe(200);
      expect([200, 404]).toContain(change.status);
      expect((await p.http('GET', `/api/transparency/webhooks/${id}`, as(dana))).status).toBe(404);
    }
  });
});
