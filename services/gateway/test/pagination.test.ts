import type { ServedService } from '@rootline/bus';
import { defineSubject, PageQuery, Pagination, paginate } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busRoute, type TypeBoxInstance } from '../src/bus-route.js';
import { serve, startTestBus, type TestBus, testGateway } from './support.js';

const Item = Type.Object({ id: Type.String() });
/** A stand-in list subject: the shape a list operation's service answers with. */
const itemSearch = defineSubject({
  subject: 'catalog.item.search',
  request: PageQuery,
  reply: Type.Object({ items: Type.Array(Item), pagination: Pagination }),
  summary: 'Search items',
});

let bus: TestBus;
let app: FastifyInstance;
let served: ServedService;
const requests: unknown[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  await app.register(
    async (scope: TypeBoxInstance) => {
      busRoute(
        scope,
        { bus: bus.gatewayBus, timeoutMs: 800 },
        {
          method: 'GET',
          url: '/search',
          summary: 'Search items',
          tags: ['Catalog'],
          policy: { permission: 'plants:read', object: { rule: 'none' } },
          subject: itemSearch,
          page: { item: Item },
        },
      );
    },
    { prefix: '/api/catalog' },
  );
  served = await serve(bus.peer, 'catalog', itemSearch, async (payload) => {
    requests.push(payload);
    const { page = 1, limit = 20 } = payload as { page?: number; limit?: number };
    return { ok: true, data: { items: [{ id: 'itm_1' }, { id: 'itm_2' }], pagination: paginate(page, limit, 12) } };
  });
});
afterAll(async () => {
  await served?.stop();
  await app?.close();
  await bus?.close();
});

describe('list operations', () => {
  it('put the items in data and the pagination object beside them', async () => {
    const res = await app.inject({ url: '/api/catalog/search?page=2&limit=5', headers: await bus.bearer() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: [{ id: 'itm_1' }, { id: 'itm_2' }],
      error: null,
      pagination: { page: 2, limit: 5, total: 12, totalPages: 3 },
    });
    // Query values arrive converted to their schema types.
    expect(requests).toEqual([{ page: 2, limit: 5 }]);
  });

  it('refuses an unknown query parameter, naming it (it used to be accepted and dropped silently)', async () => {
    const res = await app.inject({ url: '/api/catalog/search?page=2&ignored=x', headers: await bus.bearer() });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'querystring/ignored is not an accepted property',
    });
  });

  it('refuses a limit above the maximum', async () => {
    const res = await app.inject({ url: '/api/catalog/search?limit=1000', headers: await bus.bearer() });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('querystring/limit must be <= 100');
  });
});
