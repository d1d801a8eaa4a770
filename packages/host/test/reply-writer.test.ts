import { createMemoryBroker } from '@rootline/bus';
import { AppError, defineSubject } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { call, callForward, createLogger, handle, toEndpoint } from '../src/index.js';

const log = createLogger('test', 'silent');

const plantGet = defineSubject({
  subject: 'plants.plant.get',
  request: Type.Object({ plantId: Type.String() }),
  reply: Type.Object({ id: Type.String(), commonName: Type.String(), plantedAt: Type.String({ format: 'date-time' }) }),
  summary: 'test read',
});

const plantList = defineSubject({
  subject: 'plants.plant.list',
  request: Type.Object({}),
  reply: Type.Object({
    items: Type.Array(Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) })),
    pagination: Type.Object({ page: Type.Integer(), total: Type.Integer() }),
    meta: Type.Optional(Type.Object({ note: Type.String() })),
  }),
  summary: 'test list',
});

describe('success replies serialised by their contract at the source', () => {
  const quiet = () => {};
  const broker = createMemoryBroker({ log: { info: quiet, warn: quiet, error: quiet } });
  const server = broker.connect('plants');
  const client = broker.connect('gateway');

  const served = server.serve({ name: 'plants', version: '1.0.0' }, [
    toEndpoint(
      handle(plantGet, async ({ plantId }) => {
        if (plantId === 'missing') throw new AppError('NOT_FOUND', 'Plant not found');
        // What a handler might carry besides the contract: a column the API does not show.
        return {
          id: plantId,
          commonName: 'Basil',
          plantedAt: new Date('2026-05-01T08:00:00Z'),
          ownerEmail: 'grower@example.org',
        } as never;
      }),
      log,
    ),
    toEndpoint(
      handle(
        plantList,
        async () =>
          ({
            // Texts that look like the page's own framing, and characters outside ASCII: the cut counts characters.
            items: [
              { id: 'pl_1', extra: true },
              { id: 'pl_2', name: 'Zürich "x","head":{}},"data":[' },
            ],
            pagination: { page: 1, total: 2, hidden: 'no' },
            meta: { note: 'Bäume 🌳 {"headLength":3}' },
          }) as never,
      ),
      log,
    ),
  ]);

  it('sends only the properties the reply schema declares, to every caller', async () => {
    await served;
    const data = await call(client, plantGet, { plantId: 'pl_1' }, { requestId: 'req_1' });
    expect(data).toEqual({ id: 'pl_1', commonName: 'Basil', plantedAt: '2026-05-01T08:00:00.000Z' });
  });

  it('gives a forwarding caller the data as the JSON text the service wrote, unparsed', async () => {
    await served;
    const answer = await callForward(client, plantGet, { plantId: 'pl_1' }, { requestId: 'req_2' });
    const text = '{"id":"pl_1","commonName":"Basil","plantedAt":"2026-05-01T08:00:00.000Z"}';
    expect(answer).toEqual({ json: text });
    expect(await client.requestJson('plants.plant.get', { plantId: 'pl_1' })).toBe(
      `{"ok":true,"shaped":true,"data":${text}}`,
    );
  });

  const page = {
    items: [{ id: 'pl_1' }, { id: 'pl_2', name: 'Zürich "x","head":{}},"data":[' }],
    pagination: { page: 1, total: 2 },
    meta: { note: 'Bäume 🌳 {"headLength":3}' },
  };

  it('writes a page by its contract too, head and items apart, and a caller reads it whole', async () => {
    await served;
    expect(await call(client, plantList, {}, { requestId: 'req_4' })).toEqual(page);
  });

  it('gives a forwarding caller the head and the items of a page as the texts the service wrote', async () => {
    await served;
    const answer = await callForward(client, plantList, {}, { requestId: 'req_5' });
    if (!('page' in answer)) throw new Error(`not forwarded: ${JSON.stringify(answer)}`);
    expect(JSON.parse(answer.page.items)).toEqual(page.items);
    expect(JSON.parse(answer.page.head)).toEqual({ pagination: page.pagination, meta: page.meta });
  });

  it('answers an error reply to a forwarding caller as the same AppError', async () => {
    await served;
    const failed = await callForward(client, plantGet, { plantId: 'missing' }, { requestId: 'req_3' }).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({ code: 'NOT_FOUND', message: 'Plant not found' });
  });
});
