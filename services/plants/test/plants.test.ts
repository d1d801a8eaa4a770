import type { Bus, DeliveredEvent } from '@rootline/bus';
import { plantGet, plantRegister, plantRegistered } from '@rootline/contracts';
import { call } from '@rootline/host';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlantsWithLedger, startPlantsWithLedger } from './support.js';

describe('plants on NATS and PostgreSQL', () => {
  let stack: PlantsWithLedger;
  let client: Bus;
  const ctx = { requestId: 'req_plants_test', actor: { id: 'usr_test', role: 'GROWER' as const } };

  beforeAll(async () => {
    stack = await startPlantsWithLedger();
    client = stack.client;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('registers a plant on the ledger, stores it and publishes plant.registered once', async () => {
    const events: DeliveredEvent[] = [];
    const sub = await client.consume({
      durable: 'plants-test',
      subject: plantRegistered.subject,
      handler: async (e) => {
        events.push(e);
      },
    });
    const result = await call(client, plantRegister, plantInput({ commonName: 'Lavender' }), ctx);
    expect(result.id).toMatch(/^plt_/);

    const plant = await call(client, plantGet, { plantId: result.id }, ctx);
    expect(plant).toMatchObject({ id: result.id, commonName: 'Lavender', generation: 0, parentId: null });
    expect(plant.block.hash).toBe(result.blockHash);
    expect(plant.registeredAt).toBe(result.timestamp);

    await expect.poll(() => events.length, { timeout: 5000 }).toBe(1);
    expect(events[0]!.payload).toEqual({
      plantId: result.id,
      commonName: 'Lavender',
      ownerId: 'usr_test',
      scientificName: 'Solanum lycopersicum',
      privacyLevel: 'exact',
      location: { latitude: 52.3701, longitude: 4.89, city: 'Amsterdam', country: 'NL' },
    });
    expect(events[0]!.headers['x-request-id']).toBe('req_plants_test');
    await sub.stop();
  });

  it('answers NOT_FOUND for an unknown plant', async () => {
    await expect(call(client, plantGet, { plantId: 'plt_unknown0000' }, ctx)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('answers VALIDATION_ERROR naming the field for an out-of-range latitude', async () => {
    const input = plantInput({ location: { latitude: 91, longitude: 0 } });
    await expect(call(client, plantRegister, input, ctx)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('location.latitude'),
    });
  });

  it('answers UNAVAILABLE (a retriable outage, not CHAIN_ERROR) when the ledger is down', async () => {
    await stack.miner.stop();
    await expect(call(client, plantRegister, plantInput(), ctx, 15_000)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});
