import type { ServedService } from '@rootline/bus';
import { defineSubject, PageQuery, Pagination, paginate } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busRoute, type TypeBoxInstance } from '../src/http/bus-route.js';
import { serve, startTestBus, type TestBus, testGateway } from './support.js';

const Item = Type.Object({ id: Type.String() });
/** A stand-in list subject: the shape a list operation's service answers with. */
const itemSearch = defineSubject({
  subject: 'catalog.item.search',
  request: PageQuery,
  reply: Type.Object({ items: Type.Array(Item), pagination: Pagination }),
  summary: 'Search items',
});

const Summary = Type.Object({ total: Type.Integer(), owner: Type.String() });
/** A list with facts about the whole of it, paged and whole: they answer `meta` beside the items. */
const itemHistory = defineSubject({
  subject: 'catalog.item.history',
  request: PageQuery,
  reply: Type.Object({ items: Type.Array(Item), pagination: Pagination, meta: Summary }),
  summary: 'Item history',
});
const itemShelf = defineSubject({
  subject: 'catalog.item.shelf',
  request: Type.Object({}),
  reply: Type.Object({ items: Type.Array(Item) }),
  summary: 'Items on the shelf',
});

let bus: TestBus;
let app: FastifyInstance;
let served: ServedService;
const more: ServedService[] = [];
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
          tags: ['Plants'],
          policy: { permission: 'plants:read', object: { rule: 'none' } },
          subject: itemSearch,
          page: { item: Item },
        },
      );
      const deps = { bus: bus.gatewayBus, timeoutMs: 800 };
      const policy = { permission: 'plants:read', object: { rule: 'none' } } as const;
      busRoute(scope, deps, {
        method: 'GET',
        url: '/history',
        summary: 'Item history',
        tags: ['Plants'],
        policy,
        subject: itemHistory,
        page: { item: Item, meta: Summary },
      });
      busRoute(scope, deps, {
        method: 'GET',
        url: '/shelf',
        summary: 'Items on the shelf',
        tags: ['Plants'],
        policy,
        subject: itemShelf,
        list: { item: Item },
      });
    },
    { prefix: '/api/catalog' },
  );
  more.push(
    await serve(bus.peer, 'catalog', itemHistory, async () => ({
      ok: true,
      data: { items: [{ id: 'itm_1' }], pagination: paginate(1, 20, 1), meta: { total: 7, owner: 'usr_1' } },
    })),
    await serve(bus.peer, 'catalog', itemShelf, async () => ({ ok: true, data: { items: [{ id: 'itm_3' }] } })),
  );
  served = await serve(bus.peer, 'catalog', itemSearch, async (payload) => {
    requests.push(payload);
    const { page = 1, limit = 20 } = payload as { page?: number; limit?: number };
    return { ok: true, data: { items: [{ id: 'itm_1' }, { id: 'itm_2' }], pagination: paginate(page, limit, 12) } };
  });
});
afterAll(async () => {
  for (const m of more) await m.stop();
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

  it('put what a list says about the whole of it in meta, beside data and pagination, and document it so', async () => {
    const headers = await bus.bearer();
    expect((await app.inject({ url: '/api/catalog/history', headers })).json()).toEqual({
      success: true,
      data: [{ id: 'itm_1' }],
      error: null,
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
      meta: { total: 7, owner: 'usr_1' },
    });
    // A list answered whole is `data: [...]` with one page of pagination, and no meta (ADR 188).
    expect((await app.inject({ url: '/api/catalog/shelf', headers })).json()).toEqual({
      success: true,
      data: [{ id: 'itm_3' }],
      error: null,
      pagination: { page: 1, limit: 1, total: 1, totalPages: 1 },
    });
    const doc = (await app.inject({ url: '/api/openapi.json' })).json();
    const envelope = (path: string) =>
      doc.paths[path].get.responses['200'].content['application/json'].schema.properties;
    expect(Object.keys(envelope('/api/catalog/history'))).toEqual(['success', 'data', 'error', 'pagination', 'meta']);
    expect(Object.keys(envelope('/api/catalog/shelf'))).toEqual(['success', 'data', 'error', 'pagination']);
    expect(envelope('/api/catalog/shelf').data.type).toBe('array');
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
