import { service as chainMiner } from '@rootline/chain-miner';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './platform.js';

describe('plants over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants], { CHAIN_DIFFICULTY: '8' });
  });
  afterAll(async () => p?.stop());

  it('registers (201) and reads back a plant', async () => {
    const created = await p.http('POST', '/api/plants/register', {
      role: 'GROWER',
      body: plantInput({ commonName: 'Mint' }),
    });
    expect(created.status).toBe(201);
    const got = await p.http('GET', `/api/plants/${created.body.data.id}`, { role: 'USER' });
    expect(got.body).toMatchObject({
      success: true,
      data: { commonName: 'Mint', block: { hash: created.body.data.blockHash } },
    });
  });
});
