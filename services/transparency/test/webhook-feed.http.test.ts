import { generateKeyPairSync } from 'node:crypto';
import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { startWebhookReceiver } from '@rootline/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} never happened`);
}

const ALICE = 'usr_alicefeed';
const BOB = 'usr_bobfeed01';
const CAROL = 'usr_carolfeed';
const SECRET = 'alice-feed-shared-secret-0123456789';
// Around Amsterdam: [minLon, minLat, maxLon, maxLat].
const AMSTERDAM_BOX = [4.73, 52.27, 5.07, 52.43];
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };

describe('webhooks of the public feed, narrowed to an area, over HTTP', () => {
  let p: TestPlatform;
  const { privateKey } = generateKeyPairSync('ed25519');

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transparency], {
      CHAIN_DIFFICULTY: '8',
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '50',
    });
  });
  afterAll(async () => {
    await p?.stop();
  });

  const register = async (owner: string, name: string, location: object, privacyLevel = 'exact') => {
    const res = await p.http('POST', '/api/plants/register', {
      role: 'GROWER',
      sub: owner,
      body: { commonName: name, location, owner: { id: owner }, privacyLevel },
    });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: string } }).data.id;
  };
  const deliveries = async (hookId: string) =>
    (
      (await p.http('GET', `/api/transparency/webhooks/${hookId}/deliveries?limit=100`, { role: 'GROWER', sub: ALICE }))
        .body as { data: { eventId: string; kind: string; status: string }[] }
    ).data;

  it('refuses an area it cannot match', async () => {
    const create = (area: unknown) =>
      p.http('POST', '/api/transparency/webhooks', {
        role: 'GROWER',
        sub: ALICE,
        body: { url: 'http://127.0.0.1:9/hook', events: ['plant.registered'], secret: SECRET, scope: 'public', area },
      });
    for (const [area, message] of [
      [{ bbox: [4.73, 52.43, 5.07, 52.27] }, /minLat is greater than maxLat/],
      // Past ±180 the schema refuses it, naming the place in the box.
      [{ bbox: [4.73, 52.27, 190, 52.43] }, /bbox\/2 must be <= 180/],
      [{ city: 'Amsterdam' }, /country too/],
    ] as const) {
      const res = await create(area);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect((res.body as { error: { message: string } }).error.message).toMatch(message);
    }
    for (const area of [{}, { bbox: [1, 2, 3] }, { country: 'Netherlands' }, { bbox: AMSTERDAM_BOX, radius: 5 }]) {
      const res = await create(area);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    }
    const wrongScope = await p.http('POST', '/api/webhooks', {
      role: 'GROWER',
      sub: ALICE,
      body: { url: 'http://127.0.0.1:9/hook', events: ['plant.registered'], secret: SECRET, scope: 'everyone' },
    });
    expect(wrongScope.status).toBe(400);
  });

  it("sends a public webhook every plant registered in its box, in the public form; an own webhook only its owner's", async () => {
    const feed = await startWebhookReceiver();
    const mine = await startWebhookReceiver();
    try {
      const madeFeed = await p.http('POST', '/api/webhooks', {
        role: 'GROWER',
        sub: ALICE,
        body: {
          url: feed.url,
          events: ['plant.registered'],
          secret: SECRET,
          scope: 'public',
          area: { bbox: AMSTERDAM_BOX },
        },
      });
      expect(madeFeed.status).toBe(201);
      const feedHook = (madeFeed.body as { data: { id: string } }).data;
      expect(feedHook).toMatchObject({ ownerId: ALICE, scope: 'public', area: { bbox: AMSTERDAM_BOX } });
      const madeMine = await p.http('POST', '/api/transparency/webhooks', {
        role: 'GROWER',
        sub: ALICE,
        body: { url: mine.url, events: ['plant.registered'], secret: SECRET },
      });
      expect(madeMine.status).toBe(201);
      const mineHook = (madeMine.body as { data: { id: string } }).data;
      // Without a scope, a webhook is of its owner's own records, anywhere.
      expect(mineHook).toMatchObject({ scope: 'own', area: null });
      const read = await p.http('GET', `/api/transparency/webhooks/${feedHook.id}`, { role: 'GROWER', sub: ALICE });
      expect(read.body).toMatchObject({ data: { scope: 'public', area: { bbox: AMSTERDAM_BOX } } });

      // Carol's plant in Paris, Bob's hidden plant in Amsterdam, Alice's own in Utrecht, then Bob's in Amsterdam.
      const paris = await register(CAROL, 'Lavender', {
        latitude: 48.8566,
        longitude: 2.3522,
        city: 'Paris',
        country: 'FR',
      });
      const hidden = await register(BOB, 'Hidden basil', AMSTERDAM, 'hidden');
      const utrecht = await register(ALICE, 'Thyme', {
        latitude: 52.0907,
        longitude: 5.1214,
        city: 'Utrecht',
        country: 'NL',
      });
      const bobs = await register(BOB, 'Basil', AMSTERDAM);

      // Every plant is in the public history before the deliveries are counted.
      const history = async () =>
        (
          (await p.http('GET', '/api/transparency/events/history?kind=plant.registered&limit=100', { role: 'USER' }))
            .body as { data: { id: string; kind: string; data: Record<string, unknown> }[] }
        ).data;
      await until(async () => {
        const ids = (await history()).map((e) => e.data.plantId);
        return [paris, hidden, utrecht, bobs].every((id) => ids.includes(id));
      }, 'every plant in the history');
      await until(() => feed.got.length >= 1 && mine.got.length >= 1, 'the deliveries');

      // The feed: only Bob's plant in Amsterdam, as the history shows it to anyone.
      expect((await deliveries(feedHook.id)).map((d) => d.kind)).toEqual(['plant.registered']);
      const verifier = new Webhook(SECRET, { format: 'raw' });
      const received = feed.got.map(
        (g) => verifier.verify(g.body, g.headers as Record<string, string>) as { event: string; data: object },
      );
      expect(received).toHaveLength(1);
      const shown = (await history()).find((e) => e.data.plantId === bobs);
      expect(received[0]).toMatchObject({ event: 'plant.registered', data: shown?.data });
      expect(received[0]?.data).toEqual({
        plantId: bobs,
        commonName: 'Basil',
        // plant.registered's public form names the owner (the plant page shows it to anyone too).
        ownerId: BOB,
        privacyLevel: 'exact',
        location: AMSTERDAM,
      });
      // The hidden plant is public too, without a location: never in an area.
      expect((await history()).find((e) => e.data.plantId === hidden)?.data.location).toBeNull();

      // Alice's own webhook: her plant in Utrecht only, nobody else's.
      expect((await deliveries(mineHook.id)).map((d) => d.kind)).toEqual(['plant.registered']);
      const own = mine.got.map((g) => verifier.verify(g.body, g.headers as Record<string, string>) as { data: object });
      expect(own.map((d) => (d.data as { plantId: string }).plantId)).toEqual([utrecht]);
    } finally {
      await feed.stop();
      await mine.stop();
    }
  });

  it('changes scope and area, and matches a region by country code and city in any case', async () => {
    const feed = await startWebhookReceiver();
    try {
      const made = await p.http('POST', '/api/webhooks', {
        role: 'GROWER',
        sub: ALICE,
        body: { url: feed.url, events: ['plant.registered'], secret: SECRET },
      });
      const hook = (made.body as { data: { id: string } }).data;
      const bad = await p.http('PATCH', `/api/transparency/webhooks/${hook.id}`, {
        role: 'GROWER',
        sub: ALICE,
        body: { area: { bbox: [10, 5, 20, 1] } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      const changed = await p.http('PATCH', `/api/transparency/webhooks/${hook.id}`, {
        role: 'GROWER',
        sub: ALICE,
        body: { scope: 'public', area: { country: 'nl', city: 'AMSTERDAM' } },
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ data: { scope: 'public', area: { country: 'nl', city: 'AMSTERDAM' } } });

      await register(CAROL, 'Rosemary', { latitude: 51.9244, longitude: 4.4777, city: 'Rotterdam', country: 'NL' });
      const bobs = await register(BOB, 'Mint', AMSTERDAM);
      await until(() => feed.got.length >= 1, 'the delivery of Bob’s plant');
      await until(
        async () => (await deliveries(hook.id)).every((d) => d.status === 'delivered'),
        'every delivery sent',
      );
      const ids = feed.got.map((g) => (JSON.parse(g.body) as { data: { plantId: string } }).data.plantId);
      expect(ids).toEqual([bobs]);

      // Anywhere again, back to Alice's own records.
      const cleared = await p.http('PATCH', `/api/transparency/webhooks/${hook.id}`, {
        role: 'GROWER',
        sub: ALICE,
        body: { scope: 'own', area: null },
      });
      expect(cleared.body).toMatchObject({ data: { scope: 'own', area: null } });
      const listed = await p.http('GET', '/api/transparency/webhooks', { role: 'GROWER', sub: ALICE });
      expect((listed.body as { data: { id: string; scope: string }[] }).data).toContainEqual(
        expect.objectContaining({ id: hook.id, scope: 'own', area: null }),
      );
    } finally {
      await feed.stop();
    }
  });
});
