import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveredEvent } from '@rootline/bus';
import { plantRegistered } from '@rootline/contracts';
import { api, mintToken, plantInput, TEST_JWT_SECRET } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedHandle, startEmbedded } from '../src/embedded-host.js';

describe('embedded mode: the plant slice over HTTP', () => {
  let dataDir: string;
  let rootline: EmbeddedHandle;
  const token = mintToken({ role: 'GROWER' });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-embedded-'));
    rootline = await startEmbedded({
      env: { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn' },
    });
  });
  afterAll(async () => {
    await rootline?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is ready: every service answers', async () => {
    const res = await api(rootline.url, '/api/health/ready');
    expect(res.status).toBe(200);
  });

  it('registers a plant on a mined block, reads it back and emits plant.registered', async () => {
    const events: DeliveredEvent[] = [];
    const sub = await rootline.broker.connect('e2e').consume({
      durable: 'e2e-embedded',
      subject: plantRegistered.subject,
      handler: async (e) => {
        events.push(e);
      },
    });
    const input = plantInput({ commonName: 'Basil' });
    const res = await api(rootline.url, '/api/plants/register', { token, body: input });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.success).toBe(true);
    expect(body.error).toBeNull();
    expect(body.data.id).toMatch(/^plt_/);
    expect(body.data.blockHash).toMatch(/^0000[0-9a-f]{60}$/); // default difficulty: 16 leading zero bits
    expect(new Date(body.data.timestamp).toISOString()).toBe(body.data.timestamp);

    const got = await api(rootline.url, `/api/plants/${body.data.id}`, { token });
    expect(got.status).toBe(200);
    const plant = got.body.data;
    expect(plant).toMatchObject({ id: body.data.id, commonName: 'Basil', generation: 0, parentId: null });
    expect(plant.block.hash).toBe(body.data.blockHash);

    await expect.poll(() => events.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(events.find((e) => (e.payload as { plantId: string }).plantId === body.data.id)?.payload).toEqual({
      plantId: body.data.id,
      commonName: 'Basil',
    });
    await sub.stop();
  });

  it('answers 404 NOT_FOUND in the envelope for an unknown plant', async () => {
    const res = await api(rootline.url, '/api/plants/plt_00000000000000000000000000', { token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
  });
});
