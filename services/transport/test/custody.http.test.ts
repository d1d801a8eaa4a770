import { ledgerTransaction } from '@rootline/gateway/testing';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransportPlatform, type TestPlatform } from './support.js';

const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const UTRECHT = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const ALICE = { id: 'usr_alice', name: 'Alice' };
const BOB = { id: 'usr_bob', name: 'Bob' };
const CAROL = { id: 'usr_carol', name: 'Carol' };
const PLANTING_NOTE = 'alice private planting note';
const HANDOFF_NOTE = 'alice private handoff note';

describe('custody of plants and seed lots, and private notes, over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let alice: string;
  let bob: string;
  let carol: string;
  let admin: string;
  let plantId: string;
  let plantingId: string;
  let growingId: string;
  let handoffId: string;

  beforeAll(async () => {
    p = await startTransportPlatform();
    alice = await p.token('USER', ALICE.id, ALICE.name);
    bob = await p.token('USER', BOB.id, BOB.name);
    carol = await p.token('USER', CAROL.id, CAROL.name);
    admin = await p.token('ADMIN', 'usr_admin');
    const plant = await p.http('POST', '/api/plants/register', { token: alice, body: plantInput({ owner: ALICE }) });
    expect(plant.status).toBe(201);
    plantId = plant.body.data.id;
    const planting = await post(
      'planting',
      { plantId, eventTime: at(1), handler: ALICE, to: AMSTERDAM, notes: PLANTING_NOTE },
      alice,
    );
    expect(planting.status, JSON.stringify(planting.body)).toBe(201);
    plantingId = planting.body.data.id;
    const growing = await post(
      'growing',
      { plantId, eventTime: at(2), handler: ALICE, from: AMSTERDAM, to: UTRECHT, transportMode: 'cargo-bike' },
      alice,
    );
    expect(growing.status).toBe(201);
    growingId = growing.body.data.id;
  });
  afterAll(async () => p?.stop());

  const post = (kind: string, body: unknown, token: string) =>
    p.http('POST', `/api/transport/${kind}`, { token, body });
  const at = (day: number) => `2026-05-${String(day).padStart(2, '0')}T09:30:00+02:00`;
  const accept = (eventId: string, token: string) =>
    p.http('POST', `/api/transport/handoffs/${eventId}/accept`, { token });
  const journey = async (token = alice) => {
    const res = await p.http('GET', `/api/transport/journey/${plantId}?limit=1000`, { token });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("refuses Bob's correction of Alice's event (403 not-handler) and leaves her journey unchanged", async () => {
    const before = await journey();
    const res = await post(
      'growing',
      { plantId, eventTime: at(2), handler: BOB, to: AMSTERDAM, corrects: growingId, notes: 'rewritten by bob' },
      bob,
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { field: 'corrects', reason: 'not-handler' } });
    // Naming Alice as the handler does not help: only an ADMIN records for someone else.
    const posing = await post(
      'growing',
      { plantId, eventTime: at(2), handler: ALICE, to: AMSTERDAM, corrects: growingId },
      bob,
    );
    expect(posing.status).toBe(403);
    expect(await journey()).toEqual(before);
  });

  it("refuses Bob's harvest on Alice's plant (403 not-custodian) and leaves her journey unchanged", async () => {
    const before = await journey();
    const res = await post(
      'harvest',
      { plantId, eventTime: at(3), handler: BOB, to: AMSTERDAM, quantity: { value: 3, unit: 'kg' } },
      bob,
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { field: 'plantId', reason: 'not-custodian' } });
    expect(await journey()).toEqual(before);
  });

  it('hands a plant over by distribution: the recipient is refused until they accept, nobody else may accept, then they may record', async () => {
    const handoff = await post(
      'distribution',
      {
        plantId,
        eventTime: at(4),
        handler: ALICE,
        from: AMSTERDAM,
        to: UTRECHT,
        transportMode: 'bicycle',
        massKg: 2,
        recipient: BOB,
        notes: HANDOFF_NOTE,
      },
      alice,
    );
    expect(handoff.status).toBe(201);
    handoffId = handoff.body.data.id;

    const early = await post('planting', { plantId, eventTime: at(5), handler: BOB, to: UTRECHT }, bob);
    expect(early.status).toBe(403);
    expect(early.body.error.details).toEqual({ field: 'plantId', reason: 'not-custodian' });

    const byCarol = await accept(handoffId, carol);
    expect(byCarol.status).toBe(403);
    expect(byCarol.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'not-recipient' } });
    expect((await accept(handoffId, admin)).status).toBe(403);
    expect((await accept(plantingId, bob)).status).toBe(404);
    expect((await accept('tev_00000000000000000000000000', bob)).status).toBe(404);

    const accepted = await accept(handoffId, bob);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({
      eventId: handoffId,
      kind: 'distribution',
      plantId,
      seedLotId: null,
      recipient: BOB,
    });
    // Accepting again is idempotent: the same answer, the first acceptance's time.
    const again = await accept(handoffId, bob);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(accepted.body.data);

    const planting = await post('planting', { plantId, eventTime: at(5), handler: BOB, to: UTRECHT }, bob);
    expect(planting.status, JSON.stringify(planting.body)).toBe(201);
    // Custody is added, not moved: the owner still records; Carol still may not.
    expect((await post('growing', { plantId, eventTime: at(6), handler: ALICE, to: UTRECHT }, alice)).status).toBe(201);
    expect((await post('growing', { plantId, eventTime: at(7), handler: CAROL, to: UTRECHT }, carol)).status).toBe(403);
    // Bob corrects his own event, not Alice's.
    const fix = await post(
      'planting',
      { plantId, eventTime: at(5), handler: BOB, to: AMSTERDAM, corrects: planting.body.data.id },
      bob,
    );
    expect(fix.status).toBe(201);
  });

  it('makes the first handler of a seed lot its custodian; another grower needs an accepted seed-sharing', async () => {
    const lot = 'lot_custody-alice';
    const acquired = await post(
      'seed-acquisition',
      { seedLotId: lot, eventTime: at(1), handler: ALICE, to: AMSTERDAM, quantity: { value: 40, unit: 'seeds' } },
      alice,
    );
    expect(acquired.status).toBe(201);
    const saving = { seedLotId: lot, eventTime: at(9), handler: BOB, to: UTRECHT };
    const refused = await post('seed-saving', saving, bob);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual({ field: 'seedLotId', reason: 'not-custodian' });
    const shared = await post(
      'seed-sharing',
      { seedLotId: lot, eventTime: at(8), handler: ALICE, to: UTRECHT, recipient: BOB },
      alice,
    );
    expect(shared.status).toBe(201);
    expect((await post('seed-saving', saving, bob)).status).toBe(403);
    const accepted = await accept(shared.body.data.id, bob);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ kind: 'seed-sharing', plantId: null, seedLotId: lot });
    expect((await post('seed-saving', saving, bob)).status).toBe(201);
    // Bob's own new lot is his: Carol cannot record on it.
    expect((await post('seed-saving', { ...saving, seedLotId: 'lot_custody-bob' }, bob)).status).toBe(201);
    const carolOnBob = await post('seed-saving', { ...saving, seedLotId: 'lot_custody-bob', handler: CAROL }, carol);
    expect(carolOnBob.status).toBe(403);
  });

  it("lets an ADMIN correct anyone's event, and refuses Bob's correction of a correction", async () => {
    const byAdmin = await post(
      'growing',
      {
        plantId,
        eventTime: at(2),
        handler: ALICE,
        from: AMSTERDAM,
        to: UTRECHT,
        transportMode: 'walking',
        corrects: growingId,
      },
      admin,
    );
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(201);
    const before = await journey();
    expect(before.data.find((e: { id: string }) => e.id === growingId).correctedBy).toBe(byAdmin.body.data.id);
    // The correction's handler is Alice: Bob, a custodian now, still may not correct it.
    const bobFix = await post(
      'growing',
      { plantId, eventTime: at(2), handler: BOB, to: UTRECHT, corrects: byAdmin.body.data.id },
      bob,
    );
    expect(bobFix.status).toBe(403);
    expect(bobFix.body.error.details).toEqual({ field: 'corrects', reason: 'not-handler' });
    expect(await journey()).toEqual(before);
  });

  it('keeps notes private: null for Carol, shown to the parties, absent from the trace page and the ledger payload', async () => {
    type E = { id: string; notes: string | null };
    const noteOf = (events: E[], id: string) => events.find((e) => e.id === id)?.notes;
    const carolView = (await journey(carol)).data as E[];
    expect(carolView.length).toBeGreaterThan(0);
    expect(carolView.every((e) => e.notes === null)).toBe(true);
    const aliceView = (await journey(alice)).data as E[];
    expect(noteOf(aliceView, plantingId)).toBe(PLANTING_NOTE);
    expect(noteOf(aliceView, handoffId)).toBe(HANDOFF_NOTE);
    // Bob is the handoff's recipient, not a party to Alice's planting.
    const bobView = (await journey(bob)).data as E[];
    expect(noteOf(bobView, handoffId)).toBe(HANDOFF_NOTE);
    expect(noteOf(bobView, plantingId)).toBeNull();
    expect(noteOf((await journey(admin)).data as E[], plantingId)).toBe(PLANTING_NOTE);

    const page = await p.http('GET', `/api/transport/trace/${plantId}`);
    expect(page.status).toBe(200);
    expect(String(page.body)).not.toContain(PLANTING_NOTE);
    expect(String(page.body)).not.toContain(HANDOFF_NOTE);

    for (const id of [plantingId, handoffId]) {
      const event = aliceView.find((e) => e.id === id) as E & { blockHash: string };
      const block = await p.http('GET', `/api/transport/verify/${event.blockHash}`, { token: alice });
      const tx = block.body.data.transactions.find(
        (t: { transportEventId: string | null }) => t.transportEventId === id,
      );
      const { payload } = await ledgerTransaction(p, tx.id);
      expect(payload).toContain(id);
      expect(payload).not.toContain('notes');
      expect(payload).not.toContain('private');
    }
  });
  it('a handoff accepted twice while its sender corrects it: an acceptance answered 200 is stored once, a refused one stores nothing (10 rounds)', async () => {
    const custodyRows = async (eventId: string) =>
      (
        (await p.database.db.execute(
          sql`select count(*)::int as n from transport.custody where event_id = ${eventId}`,
        )) as unknown as { n: number }[]
      )[0]!.n;
    for (let round = 0; round < 10; round++) {
      const recipient = { id: `usr_race_recipient_${round}`, name: `Recipient ${round}` };
      const token = await p.token('USER', recipient.id, recipient.name);
      const day = 10 + round;
      const handoff = await post(
        'distribution',
        {
          plantId,
          eventTime: `2026-06-${day}T10:00:00+02:00`,
          handler: ALICE,
          to: UTRECHT,
          transportMode: 'bicycle',
          recipient,
        },
        alice,
      );
      expect(handoff.status, JSON.stringify(handoff.body)).toBe(201);
      const eventId = handoff.body.data.id as string;
      const [first, second, correction] = await Promise.all([
        accept(eventId, token),
        accept(eventId, token),
        post(
          'distribution',
          {
            plantId,
            eventTime: `2026-06-${day}T11:00:00+02:00`,
            handler: ALICE,
            to: AMSTERDAM,
            transportMode: 'bicycle',
            recipient,
            corrects: eventId,
          },
          alice,
        ),
      ]);
      expect(correction.status, JSON.stringify(correction.body)).toBe(201);
      const accepted = [first, second].filter((a) => a.status === 200);
      for (const refused of [first, second].filter((a) => a.status !== 200)) {
        expect(refused.status).toBe(409);
        expect(refused.body.error.details).toMatchObject({ reason: 'corrected' });
      }
      // Every acknowledged acceptance is the one stored: the same time, one custody row for the plant.
      expect(new Set(accepted.map((a) => a.body.data.acceptedAt)).size).toBeLessThanOrEqual(1);
      expect(await custodyRows(eventId)).toBe(accepted.length > 0 ? 1 : 0);
    }
  });
});
