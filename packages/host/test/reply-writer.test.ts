import { createMemoryBroker } from '@rootline/bus';
import { AppError, defineSubject } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { call, callJson, createLogger, handle, toEndpoint } from '../src/index.js';

const log = createLogger('test', 'silent');

const plantGet = defineSubject({
  subject: 'plants.plant.get',
  request: Type.Object({ plantId: Type.String() }),
  reply: Type.Object({ id: Type.String(), commonName: Type.String(), plantedAt: Type.String({ format: 'date-time' }) }),
  summary: 'test read',
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
  ]);

  it('sends only the properties the reply schema declares, to every caller', async () => {
    await served;
    const data = await call(client, plantGet, { plantId: 'pl_1' }, { requestId: 'req_1' });
    expect(data).toEqual({ id: 'pl_1', commonName: 'Basil', plantedAt: '2026-05-01T08:00:00.000Z' });
  });

  it('gives a forwarding caller the data as the JSON text the service wrote, unparsed', async () => {
    await served;
    const text = await callJson(client, plantGet, { plantId: 'pl_1' }, { requestId: 'req_2' });
    expect(text).toBe('{"id":"pl_1","commonName":"Basil","plantedAt":"2026-05-01T08:00:00.000Z"}');
    expect(await client.requestJson('plants.plant.get', { plantId: 'pl_1' })).toBe(`{"ok":true,"data":${text}}`);
  });

  it('answers an error reply to a forwarding caller as the same AppError', async () => {
    await served;
    const failed = await callJson(client, plantGet, { plantId: 'missing' }, { requestId: 'req_3' }).catch((e) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({ code: 'NOT_FOUND', message: 'Plant not found' });
  });
});
