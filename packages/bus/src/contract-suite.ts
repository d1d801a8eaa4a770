import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAppError } from '@rootline/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonText } from './codec.js';
import type { Bus, DeliveredEvent, EventMessage, Headers } from './types.js';

/** What a bus implementation gives the contract suite: fresh connections to one shared broker or server. */
export interface BusTestEnv {
  connect(): Promise<Bus>;
  teardown(): Promise<void>;
}

/** A lowercase token unique to one test, so subjects, services and durables never cross between tests. */
const tag = () => `t${randomBytes(4).toString('hex')}`;

async function waitFor(what: string, ok: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Awaits a promise that must reject and returns its error with the time it took. */
async function failure(p: Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const start = Date.now();
  try {
    await p;
  } catch (err) {
    return { err, ms: Date.now() - start };
  }
  throw new Error('expected a rejection');
}

function event(subject: string, payload: unknown, headers: Headers = {}): EventMessage {
  return {
    id: `evt_${randomBytes(8).toString('hex')}`,
    subject,
    occurredAt: new Date().toISOString(),
    payload,
    headers,
  };
}

const reply = (data: unknown) => ({ ok: true, data });

/**
 * The behaviour every Bus implementation must show, run against each of them (`memory.test.ts`,
 * `nats.test.ts`). Timeouts are kept short so the suite stays fast; each test uses its own names.
 */
export function busContractSuite(name: string, setup: () => Promise<BusTestEnv>): void {
  describe(`bus contract: ${name}`, () => {
    let env: BusTestEnv | undefined;
    const opened: Bus[] = [];
    const connect = async () => {
      if (!env) throw new Error('setup did not run');
      const bus = await env.connect();
      opened.push(bus);
      return bus;
    };

    beforeAll(async () => {
      env = await setup();
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((b) => b.close()));
    });
    afterAll(async () => {
      await env?.teardown();
    });

    describe('request/reply', () => {
      it('returns the handler result and passes headers', async () => {
        const t = tag();
        const bus = await connect();
        await bus.serve({ name: `echo-${t}`, version: '1.0.0' }, [
          { subject: `${t}.echo.get`, handler: async (payload, headers) => reply({ payload, headers }) },
        ]);
        const payload = { a: 1, list: [1, 'x', null], nested: { b: true } };
        const headers = { 'x-request-id': 'req-1', traceparent: '00-abc-def-01' };
        await expect(bus.request(`${t}.echo.get`, payload, { headers })).resolves.toStrictEqual(
          reply({ payload, headers }),
        );
      });

      it('carries payloads as JSON both ways: Date becomes a string, undefined fields vanish', async () => {
        const t = tag();
        const bus = await connect();
        const received: unknown[] = [];
        await bus.serve({ name: `json-${t}`, version: '1.0.0' }, [
          {
            subject: `${t}.json.put`,
            handler: async (payload) => {
              received.push(payload);
              return { at: new Date(0), gone: undefined };
            },
          },
        ]);
        const answer = await bus.request(`${t}.json.put`, {
          at: new Date(0),
          gone: undefined,
          nested: { u: undefined, v: 2 },
        });
        expect(received).toStrictEqual([{ at: '1970-01-01T00:00:00.000Z', nested: { v: 2 } }]);
        expect(answer).toStrictEqual({ at: '1970-01-01T00:00:00.000Z' });
      });

      it('refuses values JSON cannot carry (BigInt, a bare function) before sending', async () => {
        const t = tag();
        const bus = await connect();
        let calls = 0;
        await bus.serve({ name: `strict-${t}`, version: '1.0.0' }, [
          {
            subject: `${t}.strict.put`,
            handler: async () => {
              calls += 1;
              return null;
            },
          },
        ]);
        await expect(bus.request(`${t}.strict.put`, { n: 1n })).rejects.toThrow(TypeError);
        await expect(bus.request(`${t}.strict.put`, () => 1)).rejects.toThrow(TypeError);
        expect(calls).toBe(0);
      });

      it('answers a throwing handler with the generic INTERNAL error', async () => {
        const t = tag();
        const bus = await connect();
        await bus.serve({ name: `boom-${t}`, version: '1.0.0' }, [
          {
            subject: `${t}.boom.get`,
            handler: async () => {
              throw new Error('secret detail');
            },
          },
        ]);
        await expect(bus.request(`${t}.boom.get`, {})).resolves.toStrictEqual({
          ok: false,
          error: { code: 'INTERNAL', message: 'Internal error' },
        });
      });

      it('rejects with UNAVAILABLE when no reply comes within the timeout', async () => {
        const t = tag();
        const bus = await connect();
        await bus.serve({ name: `slow-${t}`, version: '1.0.0' }, [
          {
            subject: `${t}.slow.get`,
            handler: async () => {
              await sleep(600);
              return reply(null);
            },
          },
        ]);
        const { err, ms } = await failure(bus.request(`${t}.slow.get`, {}, { timeoutMs: 200 }));
        expect(isAppError(err) && err.code).toBe('UNAVAILABLE');
        expect((err as Error).message).toContain(`${t}.slow.get`);
        expect(ms).toBeGreaterThanOrEqual(180);
        expect(ms).toBeLessThan(550);
      });

      it('rejects with UNAVAILABLE at once when nobody serves the subject', async () => {
        const t = tag();
        const bus = await connect();
        const { err, ms } = await failure(bus.request(`${t}.nobody.get`, {}, { timeoutMs: 3_000 }));
        expect(isAppError(err) && err.code).toBe('UNAVAILABLE');
        expect(ms).toBeLessThan(500);
      });

      it('sends a reply written as JSON text as it is; requestJson hands it back unparsed', async () => {
        const t = tag();
        const subject = `${t}.text.get`;
        const server = await connect();
        await server.serve({ name: `text-${t}`, version: '1.0.0' }, [
          { subject, handler: async () => new JsonText('{"ok":true,"data":{"name":"Basil"}}') },
        ]);
        const client = await connect();
        expect(await client.request(subject, {})).toEqual({ ok: true, data: { name: 'Basil' } });
        expect(await client.requestJson(subject, {})).toBe('{"ok":true,"data":{"name":"Basil"}}');
        const { err } = await failure(client.requestJson(`${t}.nobody.get`, {}, { timeoutMs: 3_000 }));
        expect(isAppError(err) && err.code).toBe('UNAVAILABLE');
      });

      it('balances requests across the instances of one service (queue group)', async () => {
        const t = tag();
        const subject = `${t}.work.do`;
        for (const who of ['a', 'b']) {
          const bus = await connect();
          await bus.serve({ name: `worker-${t}`, version: '1.0.0' }, [{ subject, handler: async () => who }]);
        }
        const client = await connect();
        const answers: unknown[] = [];
        for (let i = 0; i < 20; i++) answers.push(await client.request(subject, { i }));
        expect(answers).toHaveLength(20);
        expect(new Set(answers)).toStrictEqual(new Set(['a', 'b']));
      });

      it('stop() lets an in-flight request finish and be answered; later requests get UNAVAILABLE', async () => {
        const t = tag();
        const subject = `${t}.drain.get`;
        const server = await connect();
        let started = false;
        let handlerDoneAt = 0;
        const served = await server.serve({ name: `drain-${t}`, version: '1.0.0' }, [
          {
            subject,
            handler: async () => {
              started = true;
              await sleep(300);
              handlerDoneAt = Date.now();
              return reply('finished');
            },
          },
        ]);
        const client = await connect();
        const pending = client.request(subject, {}, { timeoutMs: 2_000 });
        await waitFor('the handler to start', () => started);
        await served.stop();
        const stoppedAt = Date.now();
        expect(handlerDoneAt).toBeGreaterThan(0);
        expect(stoppedAt).toBeGreaterThanOrEqual(handlerDoneAt);
        await expect(pending).resolves.toStrictEqual(reply('finished'));
        const { err, ms } = await failure(client.request(subject, {}, { timeoutMs: 2_000 }));
        expect(isAppError(err) && err.code).toBe('UNAVAILABLE');
        expect(ms).toBeLessThan(500);
      });
    });

    describe('broadcast', () => {
      it('reaches every listener on every connection, each with its own copy of the payload', async () => {
        const t = tag();
        const [a, b, sender] = [await connect(), await connect(), await connect()];
        const gotA: unknown[] = [];
        const gotB: unknown[] = [];
        await a.listen(`sig.${t}.session.revoked`, (p) => gotA.push(p));
        await b.listen(`sig.${t}.session.revoked`, (p) => gotB.push(p));
        await sender.broadcast(`sig.${t}.session.revoked`, { sessionId: 'ses_1', at: new Date(0) });
        await vi.waitFor(() => expect(gotA.length + gotB.length).toBe(2), { timeout: 2000, interval: 5 });
        expect(gotA).toEqual([{ sessionId: 'ses_1', at: '1970-01-01T00:00:00.000Z' }]);
        expect(gotB).toEqual(gotA);
      });

      it('stops delivering to a listener once its subscription stops', async () => {
        const t = tag();
        const [listener, sender] = [await connect(), await connect()];
        const got: unknown[] = [];
        const sub = await listener.listen(`sig.${t}.cache.dropped`, (p) => got.push(p));
        await sender.broadcast(`sig.${t}.cache.dropped`, 1);
        await vi.waitFor(() => expect(got).toEqual([1]), { timeout: 2000, interval: 5 });
        await sub.stop();
        await sender.broadcast(`sig.${t}.cache.dropped`, 2);
        await new Promise((r) => setTimeout(r, 100));
        expect(got).toEqual([1]);
      });
    });

    describe('discovery', () => {
      it('lists every running instance with name, id and version', async () => {
        const t = tag();
        const ids: string[] = [];
        for (let i = 0; i < 2; i++) {
          const bus = await connect();
          const served = await bus.serve({ name: `disc-${t}`, version: '1.2.3', description: 'discovery test' }, [
            { subject: `${t}.disc.get`, handler: async () => null },
          ]);
          ids.push(served.id);
        }
        const observer = await connect();
        const found = (await observer.discover(300)).filter((s) => s.name === `disc-${t}`);
        expect(found.map((s) => s.id).sort()).toStrictEqual([...ids].sort());
        expect(found.every((s) => s.version === '1.2.3')).toBe(true);
      });
    });

    describe('events', () => {
      it('delivers id, subject, time, payload and headers once, with deliveryCount 1', async () => {
        const t = tag();
        const bus = await connect();
        const got: DeliveredEvent[] = [];
        await bus.consume({
          durable: `d-${t}`,
          subject: `evt.${t}.>`,
          ackWaitMs: 500,
          handler: async (e) => {
            got.push(e);
          },
        });
        const ev = event(`evt.${t}.plant.registered`, { plantId: 'plt_1', at: new Date(0) }, { 'x-request-id': 'r-9' });
        await bus.publish(ev);
        await waitFor('the event', () => got.length === 1);
        expect(got[0]).toStrictEqual({
          ...ev,
          payload: { plantId: 'plt_1', at: '1970-01-01T00:00:00.000Z' },
          deliveryCount: 1,
        });
        await sleep(700); // past the ack wait: an acknowledged event is not delivered again
        expect(got).toHaveLength(1);
      });

      it('reports as lag the events not acknowledged yet, in work or not delivered, and none once acknowledged', async () => {
        const t = tag();
        const bus = await connect();
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let started = 0;
        const sub = await bus.consume({
          durable: `d-${t}`,
          subject: `evt.${t}.>`,
          maxInFlight: 1,
          handler: async () => {
            started += 1;
            await held;
          },
        });
        expect(await sub.lag()).toBe(0);
        for (let i = 0; i < 3; i++) await bus.publish(event(`evt.${t}.plant.registered`, { i }));
        // Another subject is not this consumer's.
        await bus.publish(event(`evt.other${t}.plant.registered`, {})).catch(() => {});
        await waitFor('the first delivery', () => started === 1);
        // One in work, two not delivered (maxInFlight 1).
        expect(await sub.lag()).toBe(3);
        release();
        await waitFor('every delivery', () => started === 3);
        const deadline = Date.now() + 3_000;
        while ((await sub.lag()) !== 0 && Date.now() < deadline) await sleep(20);
        expect(await sub.lag()).toBe(0);
      });

      it('drops a second publish of the same id', async () => {
        const t = tag();
        const bus = await connect();
        const ids: string[] = [];
        await bus.consume({
          durable: `d-${t}`,
          subject: `evt.${t}.>`,
          ackWaitMs: 500,
          handler: async (e) => {
            ids.push(e.id);
          },
        });
        const ev = event(`evt.${t}.plant.registered`, { n: 1 });
        const last = event(`evt.${t}.plant.updated`, { n: 2 });
        await bus.publish(ev);
        await bus.publish({ ...ev, payload: { n: 'again' } });
        await bus.publish(last);
        await waitFor('the last event', () => ids.includes(last.id));
        await sleep(100);
        expect(ids).toStrictEqual([ev.id, last.id]);
      });

      it('refuses to publish outside the event subjects (evt.>)', async () => {
        const t = tag();
        const bus = await connect();
        await expect(bus.publish(event(`${t}.plant.registered`, {}))).rejects.toThrow(/no stream/);
      });

      it('redelivers after the handler throws, with deliveryCount 2', async () => {
        const t = tag();
        const bus = await connect();
        const deliveries: Array<{ id: string; count: number; at: number }> = [];
        await bus.consume({
          durable: `d-${t}`,
          subject: `evt.${t}.>`,
          ackWaitMs: 2_000,
          handler: async (e) => {
            deliveries.push({ id: e.id, count: e.deliveryCount, at: Date.now() });
            if (e.deliveryCount === 1) throw new Error('first attempt fails');
          },
        });
        const ev = event(`evt.${t}.plant.registered`, {});
        await bus.publish(ev);
        await waitFor('the redelivery', () => deliveries.length === 2);
        expect(deliveries.map((d) => [d.id, d.count])).toStrictEqual([
          [ev.id, 1],
          [ev.id, 2],
        ]);
        // Redelivered after the back-off, long before the 2 s ack wait.
        const gap = deliveries[1]!.at - deliveries[0]!.at;
        expect(gap).toBeGreaterThanOrEqual(150);
        expect(gap).toBeLessThan(1_500);
        await sleep(300);
        expect(deliveries).toHaveLength(2);
      });

      it('redelivers when the handler does not finish within the ack wait', async () => {
        const t = tag();
        const bus = await connect();
        const deliveries: Array<{ count: number; at: number }> = [];
        await bus.consume({
          durable: `d-${t}`,
          subject: `evt.${t}.>`,
          ackWaitMs: 400,
          handler: async (e) => {
            deliveries.push({ count: e.deliveryCount, at: Date.now() });
            if (e.deliveryCount === 1) await sleep(1_500);
          },
        });
        await bus.publish(event(`evt.${t}.plant.registered`, {}));
        await waitFor('the redelivery', () => deliveries.length === 2);
        expect(deliveries.map((d) => d.count)).toStrictEqual([1, 2]);
        // It came while the first handler was still running, so it was the ack wait that expired.
        const gap = deliveries[1]!.at - deliveries[0]!.at;
        expect(gap).toBeGreaterThanOrEqual(350);
        expect(gap).toBeLessThan(1_500);
      });

      it('shares one durable between connections without losing events', async () => {
        const t = tag();
        const handledBy = new Map<string, Set<string>>();
        for (const who of ['a', 'b']) {
          const bus = await connect();
          handledBy.set(who, new Set());
          await bus.consume({
            durable: `d-${t}`,
            subject: `evt.${t}.>`,
            ackWaitMs: 2_000,
            handler: async (e) => {
              await sleep(20);
              handledBy.get(who)!.add(e.id);
            },
          });
        }
        const publisher = await connect();
        const sent: string[] = [];
        for (let i = 0; i < 24; i++) {
          const ev = event(`evt.${t}.plant.registered`, { i });
          sent.push(ev.id);
          await publisher.publish(ev);
        }
        const a = handledBy.get('a')!;
        const b = handledBy.get('b')!;
        await waitFor('every event', () => sent.every((id) => a.has(id) || b.has(id)), 5_000);
        expect(a.size).toBeGreaterThan(0);
        expect(b.size).toBeGreaterThan(0);
      });

      it('resumes a durable after stop and restart: acknowledged events stay done, unacknowledged come back', async () => {
        const t = tag();
        const durable = `d-${t}`;
        const subject = `evt.${t}.>`;
        const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((k) => event(`evt.${t}.plant.${k}`, { k }));
        const first: string[] = [];
        const bus1 = await connect();
        const sub1 = await bus1.consume({
          durable,
          subject,
          ackWaitMs: 500,
          handler: async (e) => {
            first.push(e.id);
            if (e.id === c!.id) throw new Error('c fails');
          },
        });
        for (const e of [a!, b!, c!]) await bus1.publish(e);
        await waitFor('a, b and c', () => [a!, b!, c!].every((e) => first.includes(e.id)));
        await sub1.stop();
        await bus1.publish(d!);

        const second: DeliveredEvent[] = [];
        const bus2 = await connect();
        await bus2.consume({
          durable,
          subject,
          ackWaitMs: 500,
          handler: async (e) => {
            second.push(e);
          },
        });
        await waitFor('c and d', () => [c!, d!].every((e) => second.some((s) => s.id === e.id)));
        await sleep(200);
        const ids = second.map((s) => s.id);
        expect(ids).not.toContain(a!.id);
        expect(ids).not.toContain(b!.id);
        expect(second.find((s) => s.id === c!.id)!.deliveryCount).toBeGreaterThanOrEqual(2);
        expect(second.find((s) => s.id === d!.id)!.deliveryCount).toBe(1);
      });

      it('delivers only the subjects its filter matches', async () => {
        const t = tag();
        const bus = await connect();
        const subjects: string[] = [];
        await bus.consume({
          durable: `d-${t}`,
          subject: `evt.${t}.plants.>`,
          ackWaitMs: 500,
          handler: async (e) => {
            subjects.push(e.subject);
          },
        });
        // Non-matching first: a broken filter would deliver them before the matching ones.
        for (const s of [`evt.${t}.gardens.garden.created`, `evt.${t}.plantsx.plant.registered`, `evt.${t}.plants`]) {
          await bus.publish(event(s, {}));
        }
        const wanted = [`evt.${t}.plants.plant.registered`, `evt.${t}.plants.care.log.added`];
        for (const s of wanted) await bus.publish(event(s, {}));
        await waitFor('the matching events', () => subjects.length >= 2);
        await sleep(100);
        expect(subjects).toStrictEqual(wanted);
      });
    });
  });
}
