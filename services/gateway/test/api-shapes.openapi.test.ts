import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
};
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

let bus: TestBus;
let app: FastifyInstance;
let doc: Document;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  const res = await app.inject({ url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

/** The schema itself, or the component a `$ref` names. */
function resolve(schema: Schema | undefined): Schema | undefined {
  return schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop() as string] : schema;
}

/** Each operation's JSON success answers: `[method path status, schema]`. */
function successes(): [string, Schema][] {
  const found: [string, Schema][] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      for (const [status, r] of Object.entries(op.responses)) {
        if (!status.startsWith('2')) continue;
        const schema = resolve(r.content?.['application/json']?.schema);
        if (schema) found.push([`${method.toUpperCase()} ${path} ${status}`, schema]);
      }
    }
  }
  return found;
}

describe('the shapes of the API', () => {
  it('lists no path that ends in a slash; a prefix’s own operation is listed without it', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => p.endsWith('/'))).toEqual([]);
    expect(doc.paths['/api/webhooks']).toHaveProperty('post');
    expect(doc.paths['/api/notifications']).toHaveProperty('get');
  });

  it('puts every list in `data` and its pagination beside it, never inside', () => {
    const listsInData: string[] = [];
    const paginationInData: string[] = [];
    for (const [where, envelope] of successes()) {
      const data = resolve(envelope.properties?.data);
      if (data?.properties?.pagination) paginationInData.push(where);
      // A list wrapped in an object (`{ items }`); a record's own array field (a preference's crops) is no list.
      if (resolve(data?.properties?.items)?.type === 'array' && !data?.properties?.id) listsInData.push(where);
    }
    expect(paginationInData).toEqual([]);
    expect(listsInData).toEqual([]);
    for (const [path, meta] of [
      ['/api/transport/journey/{plantId}', ['plantId', 'seedLots', 'nextAfter', 'totals']],
      ['/api/environment/records/{plantId}', ['plantId', 'current']],
    ] as const) {
      const envelope = resolve(doc.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema);
      expect(resolve(envelope?.properties?.data)?.type, path).toBe('array');
      expect(envelope?.properties, path).toHaveProperty('pagination');
      expect(Object.keys(resolve(envelope?.properties?.meta)?.properties ?? {}), path).toEqual(meta);
    }
    for (const path of ['/api/vertical-farm/farms/{farmId}/zones', '/api/environment/similar']) {
      const envelope = resolve(doc.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema);
      expect(resolve(envelope?.properties?.data)?.type, path).toBe('array');
    }
  });

  // Regression: a farm's zones (and seven more lists answered whole) came without `pagination`, unlike every other
  // list. Every 200 whose `data` is an array declares `pagination` beside it, required; the example walk checks the
  // answers against these schemas, and the gateway's tests below check what is answered.
  it('declares a required `pagination` beside every list answered 200, paged or whole', () => {
    const lists: string[] = [];
    const without: string[] = [];
    for (const [where, envelope] of successes()) {
      if (!where.endsWith(' 200') || resolve(envelope.properties?.data)?.type !== 'array') continue;
      lists.push(where);
      const pagination = resolve(envelope.properties?.pagination);
      const fields = Object.keys(pagination?.properties ?? {});
      const ok =
        envelope.required?.includes('pagination') &&
        ['page', 'limit', 'total', 'totalPages'].every((f) => fields.includes(f));
      if (!ok) without.push(where);
    }
    expect(lists.length).toBeGreaterThan(30);
    expect(lists).toContain('GET /api/vertical-farm/farms/{farmId}/zones 200');
    expect(without).toEqual([]);
  });

  it('answers 201 to every operation that makes a record', () => {
    const created = (method: string, path: string) => Object.keys(doc.paths[path]?.[method]?.responses ?? {});
    for (const [method, path] of [
      ['post', '/api/demand/preferences'],
      ['post', '/api/demand/match'],
      ['post', '/api/marketplace/offers/{offerId}/review'],
      ['post', '/api/webhooks'],
    ] as const) {
      expect(created(method, path), `${method} ${path}`).toContain('201');
      expect(created(method, path), `${method} ${path}`).not.toContain('200');
    }
  });
});
