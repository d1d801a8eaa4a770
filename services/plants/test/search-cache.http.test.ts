import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

describe('search answers reused over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let reader: string;
  let grower: string;
  const search = (token: string, query: string) => p.http('GET', `/api/plants/search?${query}`, { token });

  beforeAll(async () => {
    // Long enough that no answer expires during the test, however slow the machine.
    p = await startPlantsPlatform({ SEARCH_CACHE_MS: '60000' });
    grower = await p.token('USER', 'usr_grower', 'Grower');
    reader = await p.token('USER', 'usr_reader');
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('answers a repeated search from the answer kept, and the writer sees its own new plant at once', async () => {
    const before = await search(reader, 'q=zinnia');
    expect(before.status).toBe(200);
    expect(before.body.pagination).toMatchObject({ total: 0 });

    const reg = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({
        commonName: 'Zinnia',
        scientificName: 'Zinnia elegans',
        owner: { id: 'usr_grower', name: 'Grower' },
      }),
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);

    // Another caller within the answer's time: the answer kept (the registration is not in it yet).
    const reused = await search(reader, 'q=zinnia');
    expect(reused.status).toBe(200);
    expect(reused.body.pagination).toMatchObject({ total: 0 });
    expect(reused.body.data).toEqual([]);

    // The caller who just wrote reads afresh, and finds its plant.
    const own = await search(grower, 'q=zinnia');
    expect(own.body.data.map((x: { id: string }) => x.id)).toEqual([reg.body.data.id]);
    expect(own.body.pagination).toMatchObject({ total: 1, totalIsEstimate: false });

    // Another query (here: one field only) is an answer of its own, computed now.
    const species = await search(reader, 'q=zinnia&type=species');
    expect(species.body.data.map((x: { id: string }) => x.id)).toEqual([reg.body.data.id]);
  });
});
