import { generateKeyPairSync } from 'node:crypto';
import { type ClientRequest, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  contextToHeaders,
  demandMatched,
  listingPublished,
  newId,
  offerAccepted,
  offerCountered,
  offerMade,
  plantRegistered,
} from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

interface Frame {
  id: number;
  event: string;
  data: { id: string; kind: string; occurredAt: string; data: Record<string, unknown> };
}

/** A real SSE client over HTTP: collects frames and comments as they arrive. */
function openStream(url: string, token: string, lastEventId?: number) {
  const frames: Frame[] = [];
  const comments: string[] = [];
  let buffer = '';
  let ready = false;
  let status = 0;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const req: ClientRequest = request(url, {
    headers: {
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
      ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}),
    },
  });
  req.on('response', (res) => {
    status = res.statusCode ?? 0;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((l) => !l.startsWith(':'))
            .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
        );
        if (block.startsWith(':')) comments.push(block);
        else if (fields.retry) ready = true;
        else frames.push({ id: Number(fields.id), event: fields.event ?? '', data: JSON.parse(fields.data ?? 'null') });
        end = buffer.indexOf('\n\n');
      }
      wake();
    });
    res.on('end', wake);
  });
  req.on('error', () => {});
  req.end();
  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 400 && !check(); i++) {
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
    if (!check()) throw new Error(`stream: ${what} never came (${JSON.stringify({ status, frames, comments })})`);
  };
  return {
    frames,
    comments,
    status: () => status,
    ready: () => until(() => ready, 'the ready line'),
    frameCount: (n: number) => until(() => frames.length >= n, `${n} frames`),
    heartbeat: () => until(() => comments.includes(': heartbeat'), 'a heartbeat'),
    close: () => req.destroy(),
  };
}

describe('public event stream and history over HTTP', () => {
  let p: TestPlatform;
  let base: string;
  let token: string;
  const { privateKey } = generateKeyPairSync('ed25519');
  const actor = { id: 'usr_alice', role: 'GROWER' as const };

  const publish = (subject: string, payload: object) =>
    p.bus.publish({
      id: newId('evt', Date.now()),
      subject,
      occurredAt: new Date().toISOString(),
      payload,
      headers: contextToHeaders({ requestId: newId('req', Date.now()), actor }),
    });
  const plant = (id: string, name: string) => publish(plantRegistered.subject, { plantId: id, commonName: name });
  const listing = (id: string) =>
    publish(listingPublished.subject, {
      listingId: id,
      sellerId: 'usr_bob',
      title: 'Seedlings',
      category: 'seedling',
      price: 250,
      currency: 'EUR',
    });

  async function history(q: string) {
    const res = await p.http('GET', `/api/transparency/events/history?${q}`, { role: 'USER' });
    return res.body as { data: { seq: number; kind: string; data: Record<string, unknown> }[]; pagination: unknown };
  }
  async function historySize(n: number) {
    for (let i = 0; i < 400; i++) {
      if ((await history('limit=100')).data.length >= n) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`history never reached ${n}`);
  }

  beforeAll(async () => {
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      SSE_HEARTBEAT_SECONDS: '1',
      SSE_POLL_MS: '200',
    });
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(p.app.server.address() as AddressInfo).port}/api/transparency/events`;
    token = await p.token('USER', 'usr_reader');
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('streams new public events of the kinds asked for, each with its seq as id', async () => {
    const stream = openStream(`${base}?kind=plant.registered`, token);
    await stream.ready();
    await plant('plt_streamA1', 'Tomato');
    await historySize(1);
    await listing('lst_stream01');
    await historySize(2);
    await plant('plt_streamB1', 'Basil');
    await stream.frameCount(2);
    stream.close();
    expect(stream.status()).toBe(200);
    expect(stream.frames.map((f) => [f.id, f.event, f.data.data.plantId])).toEqual([
      [1, 'plant.registered', 'plt_streamA1'],
      [3, 'plant.registered', 'plt_streamB1'],
    ]);
    expect(stream.frames[0]!.data).toMatchObject({ kind: 'plant.registered', data: { commonName: 'Tomato' } });
  });

  it('resumes after Last-Event-ID from the history, then goes on live', async () => {
    await plant('plt_streamC1', 'Kale');
    await historySize(4);
    await listing('lst_stream02');
    await historySize(5);
    const stream = openStream(`${base}?kind=plant.registered`, token, 1);
    await stream.ready();
    await stream.frameCount(2);
    await plant('plt_streamD1', 'Leek');
    await stream.frameCount(3);
    stream.close();
    expect(stream.frames.map((f) => [f.id, f.data.data.plantId])).toEqual([
      [3, 'plt_streamB1'],
      [4, 'plt_streamC1'],
      [6, 'plt_streamD1'],
    ]);
  });

  it('sends every kind without a filter, and heartbeats while idle', async () => {
    await historySize(6);
    const stream = openStream(base, token, 4);
    await stream.frameCount(2);
    await stream.heartbeat();
    stream.close();
    expect(stream.frames.map((f) => [f.id, f.event])).toEqual([
      [5, 'listing.published'],
      [6, 'plant.registered'],
    ]);
  });

  it('keeps a paginated history, filtered by kind and by seq', async () => {
    const page = await history('limit=2&page=2');
    expect(page.data.map((e) => e.seq)).toEqual([3, 4]);
    expect(page.pagination).toEqual({ page: 2, limit: 2, total: 6, totalPages: 3 });
    expect((await history('kind=listing.published')).data.map((e) => e.seq)).toEqual([2, 5]);
    expect((await history('kind=listing.published,plant.registered&after=4')).data.map((e) => e.seq)).toEqual([5, 6]);
    const bad = await p.http('GET', '/api/transparency/events/history?kind=Plant Registered', { role: 'USER' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('refuses a stream without a session', async () => {
    const res = await p.http('GET', '/api/transparency/events');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
  });
  it('shows offers without buyer, quantity or price, and matches without their household, to anyone else', async () => {
    // Alice sells on a listing; Bob offers and Alice accepts; Carol watches the public stream and history.
    const carol = await p.token('USER', 'usr_carol');
    const before = (await history('limit=100')).data.length;
    const stream = openStream(`${base}?kind=offer.made,offer.countered,offer.accepted,demand.match`, carol);
    await stream.ready();
    const offer = {
      offerId: 'ofr_privateoffer1',
      listingId: 'lst_aliceseeds1',
      buyerId: 'usr_bob',
      sellerId: 'usr_alice',
      quantity: 37,
      price: 4321,
      currency: 'EUR',
    };
    await publish(offerMade.subject, offer);
    await publish(offerCountered.subject, { ...offer, counterPrice: 5678 });
    await publish(offerAccepted.subject, offer);
    await publish(demandMatched.subject, {
      matchId: 'mch_privatematch1',
      supplyId: 'sup_alicesupply1',
      growerId: 'usr_alice',
      consumerId: 'usr_bob',
      crop: 'tomato',
      quantityKg: 2.5,
      distanceKm: 0.013,
    });
    await historySize(before + 4);
    await stream.frameCount(4);
    stream.close();
    const shown = (await history('kind=offer.made,offer.countered,offer.accepted,demand.match')).data;
    for (const seen of [shown.map((e) => e.data), stream.frames.map((f) => f.data.data)]) {
      expect(seen).toEqual([
        { offerId: 'ofr_privateoffer1', listingId: 'lst_aliceseeds1', sellerId: 'usr_alice' },
        { offerId: 'ofr_privateoffer1', listingId: 'lst_aliceseeds1', sellerId: 'usr_alice' },
        { offerId: 'ofr_privateoffer1', listingId: 'lst_aliceseeds1', sellerId: 'usr_alice' },
        {
          matchId: 'mch_privatematch1',
          supplyId: 'sup_alicesupply1',
          growerId: 'usr_alice',
          crop: 'tomato',
          quantityKg: 2.5,
        },
      ]);
      for (const secret of ['usr_bob', '4321', '5678', '37', '0.013'])
        expect(JSON.stringify(seen)).not.toContain(secret);
    }
    expect(shown.map((e) => e.kind)).toEqual(['offer.made', 'offer.countered', 'offer.accepted', 'demand.match']);
    // The audit log (ADMIN only) keeps the whole event.
    const audit = await p.http('GET', '/api/transparency/audit?entity=ofr_privateoffer1', {
      role: 'ADMIN',
      sub: 'usr_root',
    });
    expect(JSON.stringify(audit.body.data)).toContain('4321');
  });
});
