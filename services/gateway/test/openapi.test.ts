import { readFileSync } from 'node:fs';
import { ERROR_CODES, PUBLIC_EVENT_KINDS } from '@rootline/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_STATUS } from '../src/http/http-status.js';
import { operationIdOf } from '../src/http/operation-id.js';
import { startTestBus, type TestBus, testGateway } from './support.js';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  'x-permission'?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: Record<string, unknown>; example?: unknown }> }
  >;
}
interface Document {
  openapi: string;
  info: { description: string; license?: { name: string; identifier?: string } };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

/** Every schema object of the document: components, parameters, request bodies and responses. */
function collectSchemas(document: Document): [string, object][] {
  const found: [string, object][] = Object.entries(document.components.schemas).map(([k, v]) => [k, v as object]);
  const shared = (document.components as { parameters?: Record<string, { schema: object }> }).parameters ?? {};
  for (const [name, p] of Object.entries(shared)) found.push([`parameter ${name}`, p.schema]);
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const where = `${method.toUpperCase()} ${path}`;
      const withParams = op as Operation & { parameters?: { name: string; schema: object }[] };
      // A parameter by reference ($ref) is checked once, among the shared ones above.
      for (const p of withParams.parameters ?? []) if (p.schema) found.push([`${where} ${p.name}`, p.schema]);
      const body = op.requestBody as { content: Record<string, { schema?: object }> } | undefined;
      for (const media of Object.values(body?.content ?? {}))
        if (media.schema) found.push([`${where} body`, media.schema]);
      for (const [status, r] of Object.entries(op.responses)) {
        for (const media of Object.values(r.content ?? {})) found.push([`${where} ${status}`, media.schema]);
      }
    }
  }
  return found;
}

let bus: TestBus;
let app: FastifyInstance;
let doc: Document;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus, { PUBLIC_URL: 'https://api.rootline.example' });
  const res = await app.inject({ url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

describe('OpenAPI document', () => {
  // It declared 3.0.3 while using JSON Schema 2020 keywords, with 82 `nullable`: strict parsers refused it.
  it('is a valid OpenAPI 3.1.0 document, by an independent validator, without 3.0 keywords', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });

  // The OpenAPI validator checks the document's structure; each schema in it must be JSON Schema 2020-12.
  it('holds only JSON Schema 2020-12 schemas, checked against the 2020-12 meta-schema', () => {
    const meta = new Ajv2020({ strict: false });
    const schemas = collectSchemas(doc);
    expect(schemas.length).toBeGreaterThan(200);
    for (const [where, schema] of schemas) {
      expect(meta.validateSchema(schema), `${where}: ${meta.errorsText(meta.errors)}`).toBe(true);
    }
    // A 3.0-style boolean exclusiveMinimum is what strict parsers refused: the check catches it.
    expect(meta.validateSchema({ type: 'number', minimum: 0, exclusiveMinimum: true })).toBe(false);
  });

  // Every error example used to say VALIDATION_ERROR with `data: {}`.
  it('shows each error response with one example per code it carries, data null, and success examples with error null', () => {
    let errors = 0;
    let successes = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const media = response.content?.['application/json'] as
            | { example?: unknown; examples?: Record<string, { value: unknown }> }
            | undefined;
          const where = `${method.toUpperCase()} ${path} ${status}`;
          // The one error body a protocol fixes: a witness's 409 is the size it holds (c2sp.org/tlog-witness).
          if (status === '409' && response.content?.['text/x.tlog.size'] && !media) continue;
          // The EPCIS 2.0 routes answer the standard's RFC 7807 problems instead of the envelope (ADR 277).
          const problem = response.content?.['application/problem+json'] as { example?: unknown } | undefined;
          if (Number(status) >= 400 && problem) {
            expect(path, where).toMatch(/^\/api\/epcis\//);
            expect(problem.example, where).toMatchObject({
              type: expect.stringMatching(/^(epcisException:[A-Za-z]+|about:blank)$/),
              title: expect.any(String),
              status: Number(status),
            });
            continue;
          }
          if (Number(status) >= 400) {
            const codes = response.description.replace('Error: ', '').split(', ');
            expect(Object.keys(media?.examples ?? {}), where).toEqual(codes);
            for (const code of codes) {
              expect(ERROR_CODES, where).toContain(code);
              expect(HTTP_STATUS[code as keyof typeof HTTP_STATUS], where).toBe(Number(status));
              expect(media?.examples?.[code]?.value, where).toMatchObject({
                success: false,
                data: null,
                error: { code, message: expect.any(String) },
              });
              errors++;
            }
          } else if (media?.example !== undefined && path.startsWith('/api/epcis/capture')) {
            // The EPCIS 2.0 capture routes answer the standard's CaptureJob, not the envelope (ADR 301).
            for (const job of [media.example].flat()) {
              expect(job, where).toMatchObject({ captureID: expect.stringMatching(/^cap_/) });
            }
          } else if (media?.example !== undefined && path.startsWith('/api/epcis/queries')) {
            // The EPCIS 2.0 named queries answer the standard's query, or its events, not the envelope (ADR 304), and
            // their subscriptions the standard's subscription (ADR 313).
            for (const query of [media.example].flat()) {
              expect(query, where).toHaveProperty(
                path.endsWith('/events') ? 'epcisBody' : path.includes('/subscriptions') ? 'subscriptionID' : 'query',
              );
            }
          } else if (media?.example !== undefined) {
            expect(media.example, where).toMatchObject({ success: true, error: null });
            successes++;
          }
        }
      }
    }
    expect(errors).toBeGreaterThan(100);
    expect(successes).toBeGreaterThan(10);
  });

  it('lists every area the API offers, each on a line with its tag, and every tag among them', () => {
    const lines = doc.info.description.split('\n');
    const areas = [
      'Plants and lineage',
      'Discovery',
      'Places',
      'Ledger and verification',
      'Transport and carbon',
      'Demand planning',
      'Marketplace',
      'Vertical farming',
      'Environment records',
      'Uploads',
      'Notifications',
      'Transparency',
      'Real-time',
      'Agents',
      'Analytics',
      'Privacy',
      'Accounts and tokens',
      'Organizations',
      'Operations',
    ];
    const tags = new Set((doc.tags ?? []).map((t) => t.name));
    const listed = new Set<string>();
    for (const area of areas) {
      const line = lines.find((l) => l.startsWith(`- **${area}** (tag *`));
      expect(line, area).toBeDefined();
      const tag = /\(tag \*([^*]+)\*\)/.exec(line as string)?.[1] as string;
      expect(tags.has(tag), `${area}: ${tag}`).toBe(true);
      listed.add(tag);
    }
    const transparency = lines.find((l) => l.startsWith('- **Transparency**')) as string;
    for (const part of [
      'audit log',
      'events',
      'webhooks',
      'signatures',
      'certificates',
      'exports',
      'reports',
      'dashboard',
    ]) {
      expect(transparency).toContain(part);
    }
    for (const line of lines.filter((l) => l.startsWith('- **')))
      listed.add(/\(tag \*([^*]+)\*\)/.exec(line)?.[1] ?? '');
    expect(listed).toEqual(tags);
  });

  it('is OpenAPI 3 with the bearer scheme, the shared error envelope and the public server', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.securitySchemes.cookieAuth).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'rootline_session',
    });
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
    expect(doc.servers).toEqual([{ url: 'https://api.rootline.example' }]);
  });

  it('documents plant registration with summary, tag, bearer security, example and its responses', () => {
    const op = doc.paths['/api/plants/register']?.post;
    expect(op?.summary).toBe('Register a plant');
    expect(op?.tags).toEqual(['Plants']);
    expect(op?.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(op?.requestBody?.content['application/json']?.example).toMatchObject({ commonName: 'Tomato' });
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(
      // 404 and 409: a seed lot named by `seedLotId` that does not exist, or was discarded.
      ['201', '400', '401', '403', '404', '409', '413', '422', '429', '500', '503'].sort(),
    );
    const created = op?.responses['201']?.content?.['application/json']?.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(created.properties)).toEqual(['success', 'data', 'error']);
    expect(op?.responses['500']?.description).toBe('Error: CHAIN_ERROR, INTERNAL');
    expect(JSON.stringify(op?.responses['400'])).toContain('ErrorEnvelope');
  });

  it('documents the Idempotency-Key header on the operations that create something, and only there', () => {
    type Parameter = { in: string; name: string; required?: boolean };
    const keyOf = (op: unknown) =>
      ((op as { parameters?: Parameter[] } | undefined)?.parameters ?? []).find(
        (p) => p.in === 'header' && p.name === 'idempotency-key',
      );
    for (const path of ['/api/plants/register', '/api/plants/register-anonymous', '/api/plants/clone']) {
      expect(keyOf(doc.paths[path]?.post), path).toMatchObject({ in: 'header', required: false });
    }
    expect(keyOf(doc.paths['/api/plants/{plantId}']?.get)).toBeUndefined();
  });

  it('documents Rootline-Act-As once, as a reusable header, on every operation that takes a credential', () => {
    const components = doc.components as { parameters?: Record<string, { name: string; in: string }> };
    expect(components.parameters?.ActAs).toMatchObject({ name: 'Rootline-Act-As', in: 'header', required: false });
    const refers = (op: unknown) =>
      JSON.stringify((op as { parameters?: unknown[] } | undefined)?.parameters ?? []).includes(
        '#/components/parameters/ActAs',
      );
    expect(refers(doc.paths['/api/plants/register']?.post)).toBe(true);
    // A public read that names the caller when a credential comes: acting applies there too.
    expect(refers(doc.paths['/api/plants/{plantId}']?.get)).toBe(true);
    expect(refers(doc.paths['/api/plants/register-anonymous']?.post)).toBe(false);
  });

  it('documents reading a plant (public, a credential optional) with summary, security and 404', () => {
    const op = doc.paths['/api/plants/{plantId}']?.get;
    expect(op?.summary).toBe('Read a plant');
    // Public since plants' pages open signed out; a credential sent along still names the caller.
    expect(op?.security).toEqual([{}, { bearerAuth: [] }, { cookieAuth: [] }]);
    expect(op?.responses['200']).toBeDefined();
    expect(op?.responses['404']?.description).toBe('Error: NOT_FOUND');
  });

  it('marks public operations as needing no security', () => {
    expect(doc.paths['/api/health/live']?.get?.security).toEqual([]);
    expect(doc.paths['/api/metrics']?.get?.security).toEqual([]);
  });

  it('explains the envelope, the code-to-status table, authentication and rate limits', () => {
    const text = doc.info.description;
    expect(text).toContain('| DUPLICATE | 409 |');
    expect(text).toContain('| RATE_LIMITED | 429 |');
    expect(text).toContain('| UNAVAILABLE | 503 |');
    expect(text).toContain('Authorization: Bearer');
    expect(text).toContain('X-RateLimit-Reset');
    expect(text).toContain('100 requests per minute');
  });

  it('names its licence, the one in LICENSE and package.json', () => {
    const root = new URL('../../../', import.meta.url);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { license: string };
    expect(doc.info.license).toEqual({ name: 'Apache License 2.0', identifier: pkg.license });
    expect(pkg.license).toBe('Apache-2.0');
    expect(readFileSync(new URL('LICENSE', root), 'utf8')).toContain(
      'Apache License\n                           Version 2.0',
    );
  });

  it('describes every tag its operations use, and uses every tag it describes', () => {
    const used = new Set(
      Object.values(doc.paths).flatMap((methods) => Object.values(methods).flatMap((op) => op.tags ?? [])),
    );
    const described = (doc.tags ?? []).map((t) => t.name);
    expect(new Set(described)).toEqual(used);
    expect(described.length).toBe(used.size);
    for (const tag of doc.tags ?? []) expect(tag.description?.length ?? 0, tag.name).toBeGreaterThan(20);
  });

  it('serves paths relative to the document when no public address is set', async () => {
    const local = await testGateway(bus);
    const res = await local.inject({ url: '/api/openapi.json' });
    expect((res.json() as Document).servers).toEqual([{ url: '/' }]);
    await local.close();
  });

  it('hides the documentation routes themselves', () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/docs') || p === '/api/openapi.json')).toEqual([]);
  });
});

describe('operationId', () => {
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
    );

  // Client generators name their methods by it; without one they invent names from the path.
  it('names every operation, camelCase, each name once', () => {
    const ids = operations().map(({ where, op }) => {
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      return op.operationId;
    });
    expect(ids.length).toBeGreaterThan(150);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('derives the name from the subject, verb first, with a few named outright', () => {
    expect(operationIdOf('plants.plant.register')).toBe('registerPlant');
    expect(operationIdOf('plants.plant.register-anonymous')).toBe('registerAnonymousPlant');
    expect(operationIdOf('farm.zone.list')).toBe('listZones');
    expect(operationIdOf('transparency.webhook-delivery.list')).toBe('listWebhookDeliveries');
    expect(operationIdOf('demand.listing.set-status')).toBe('setListingStatus');
    expect(doc.paths['/api/plants/register']?.post?.operationId).toBe('registerPlant');
    expect(doc.paths['/api/plants/{plantId}']?.get?.operationId).toBe('getPlant');
    expect(doc.paths['/api/auth/signin']?.post?.operationId).toBe('signIn');
    // Two services each have a `block.verify`: the second is named outright.
    expect(doc.paths['/api/chain/blocks/{hash}/verify']?.get?.operationId).toBe('verifyBlock');
    expect(doc.paths['/api/transport/verify/{blockHash}']?.get?.operationId).toBe('verifyTransportBlock');
  });

  it('refuses to start when two operations share one, or one has none', async () => {
    const twice = await testGateway(bus);
    twice.register(
      async (scope) => {
        const config = { public: true, object: { rule: 'none' } } as const;
        scope.get('/again', { config, schema: { operationId: 'getPlant' } }, async () => ({}));
      },
      { prefix: '/api/plants' },
    );
    await expect(twice.ready()).rejects.toThrow(
      'GET /api/plants/again has operationId getPlant, which GET /api/plants/:plantId already has',
    );
    await twice.close().catch(() => {});

    const unnamed = await testGateway(bus);
    unnamed.register(
      async (scope) => {
        scope.get('/unnamed', { config: { public: true, object: { rule: 'none' } } }, async () => ({}));
      },
      { prefix: '/api/plants' },
    );
    await expect(unnamed.ready()).rejects.toThrow('GET /api/plants/unnamed needs an operationId');
    await unnamed.close().catch(() => {});
  });
});

describe('named schemas', () => {
  const RESOURCES = [
    'Plant',
    'Block',
    'TransportEvent',
    'JourneyMeta',
    'Listing',
    'Offer',
    'Farm',
    'Zone',
    'Batch',
    'Recipe',
    'EnvironmentRecord',
    'Webhook',
    'WebhookDelivery',
    'Notification',
    'File',
    'User',
    'ApiToken',
    'Location',
    'Owner',
  ];
  const dataOf = (path: string, method: string, status = '200') => {
    const schema = doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema as
      | { properties: { data: Record<string, unknown> } }
      | undefined;
    return schema?.properties.data;
  };

  it('lists each resource, the error envelope and the pagination object once, each referred to', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(expect.arrayContaining([...RESOURCES, 'ErrorEnvelope', 'ErrorBody', 'Pagination']));
    const text = JSON.stringify(doc);
    for (const name of names) expect(text, name).toContain(`"$ref":"#/components/schemas/${name}"`);
  });

  it('refers to them from the operations instead of repeating them', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(dataOf('/api/plants/{plantId}', 'get')).toEqual(ref('Plant'));
    expect(dataOf('/api/chain/blocks/{hash}', 'get')).toEqual(ref('Block'));
    // A journey is a page of its events in `data`, with what it says of the whole journey in `meta`.
    expect(dataOf('/api/transport/journey/{plantId}', 'get')).toEqual({ type: 'array', items: ref('TransportEvent') });
    expect(doc.components.schemas.JourneyMeta).toMatchObject({ properties: { totals: expect.any(Object) } });
    expect(dataOf('/api/marketplace/listings', 'get')).toEqual({ type: 'array', items: ref('Listing') });
    expect(dataOf('/api/marketplace/offers/{offerId}/accept', 'post')).toMatchObject(ref('Offer'));
    expect(dataOf('/api/vertical-farm/farms/{farmId}', 'get')).toEqual(ref('Farm'));
    expect(dataOf('/api/vertical-farm/batch/{batchId}', 'get')).toEqual(ref('Batch'));
    expect(dataOf('/api/upload/{fileId}', 'get')).toEqual(ref('File'));
    expect(dataOf('/api/transparency/webhooks/{webhookId}', 'get')).toEqual(ref('Webhook'));
    expect(dataOf('/api/notifications', 'get')).toEqual({ type: 'array', items: ref('Notification') });
    const paginationOf = (path: string) => {
      const schema = doc.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema as {
        properties: Record<string, unknown>;
      };
      return schema.properties.pagination;
    };
    expect(paginationOf('/api/plants/owned/{ownerId}')).toEqual(ref('Pagination'));
    // Nearby and search say whether their total is an estimate.
    expect(paginationOf('/api/plants/nearby')).toEqual(ref('NearbyPagination'));
    expect(paginationOf('/api/plants/search')).toEqual(ref('SearchPagination'));
    expect(doc.components.schemas.ErrorEnvelope).toMatchObject({ properties: { error: ref('ErrorBody') } });
    // A schema derived from a named one is shown in place, without the name it inherited.
    expect(JSON.stringify(doc.paths['/api/notifications/preferences']?.patch?.requestBody)).not.toContain('"title"');
  });

  // Names are titles, which validation ignores: the gateway still checks a nested named schema (Location).
  it('leaves validation as it was', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/plants/register',
      headers: await bus.bearer('GROWER', 'usr_named'),
      payload: {
        commonName: 'Tomato',
        location: { latitude: 91, longitude: 4.9 },
        owner: { id: 'usr_named', name: 'Ada' },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'body/location/latitude' }],
    });
  });
});

// Redocly's and Spectral's findings on the document: openapi-lint.test.ts (none at any severity).
describe('paths', () => {
  it('documents a plugin’s root route without the trailing slash, and the gateway serves it so', async () => {
    expect(Object.keys(doc.paths).filter((p) => p.endsWith('/'))).toEqual([]);
    expect(doc.paths['/api/webhooks']?.post?.operationId).toBe('registerWebhook');
    expect(doc.paths['/api/notifications']?.get?.operationId).toBe('listNotifications');
    expect((await app.inject({ method: 'POST', url: '/api/webhooks', payload: {} })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/notifications' })).statusCode).toBe(401);
  });
});

describe('identity operations', () => {
  const ops = () =>
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/auth/') || path.startsWith('/api/admin/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

  it('are all documented, with a summary, a description, a tag, and examples of the request and the answer', () => {
    const list = ops();
    expect(list.length).toBe(18);
    for (const { path, method, op } of list) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.summary, where).toBeTruthy();
      expect(op.description?.length ?? 0, where).toBeGreaterThan(20);
      expect(op.tags, where).toEqual([path.startsWith('/api/admin/') ? 'Administration' : 'Authentication']);
      if (op.requestBody) expect(op.requestBody.content['application/json']?.example, `${where} request`).toBeDefined();
      const success = op.responses['200'] ?? op.responses['201'];
      if (success) expect(success.content?.['application/json']?.example, `${where} answer`).toBeDefined();
      else expect(op.responses['302'], where).toBeDefined();
    }
  });

  it('name their permission and security, or none for public ones', () => {
    const signin = doc.paths['/api/auth/signin']?.post;
    expect(signin?.security).toEqual([]);
    expect(signin?.responses['200']?.content?.['application/json']?.example).toMatchObject({
      success: true,
      data: { token: expect.any(String), user: { email: 'ada@example.org' } },
    });
    const tokens = doc.paths['/api/auth/tokens']?.post;
    expect(tokens?.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(tokens?.['x-permission']).toBe('account:write');
    expect(doc.paths['/api/admin/users/{userId}/role']?.put?.['x-permission']).toBe('admin:users');
    expect(doc.paths['/api/auth/callback/{provider}']?.get?.responses['302']).toBeDefined();
  });

  it('describe the password policy, the cookie, CSRF and the per-user limit', () => {
    const text = doc.info.description;
    expect(text).toContain('At least 10 characters');
    expect(text).toContain('rootline_session');
    expect(text).toContain('X-CSRF-Token');
    expect(text).toContain('1000 requests per hour per signed-in user');
    expect(text).toContain('rlpat_');
  });
});

describe('Swagger UI', () => {
  it('serves HTML at /api/docs without a token', async () => {
    const res = await app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger/i);
  });

  it('serves its assets', async () => {
    const res = await app.inject({ url: '/api/docs/static/swagger-initializer.js' });
    expect(res.statusCode).toBe(200);
  });
});

describe('multipart uploads', () => {
  it.each([
    ['/api/upload/image', 'image/jpeg'],
    ['/api/upload/document', 'application/pdf'],
  ])('%s documents its form: category, entityType, entityId and a required binary file', (path, type) => {
    const body = doc.paths[path]?.post?.requestBody as
      | {
          required?: boolean;
          content: Record<
            string,
            {
              schema: {
                type: string;
                properties: Record<string, { type: string; format?: string }>;
                required: string[];
              };
              encoding?: Record<string, { contentType: string }>;
            }
          >;
        }
      | undefined;
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {})).toEqual(['multipart/form-data']);
    const form = body?.content['multipart/form-data'];
    expect(form?.schema.type).toBe('object');
    expect(Object.keys(form?.schema.properties ?? {})).toEqual(['category', 'entityType', 'entityId', 'file']);
    expect(form?.schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form?.schema.required).toEqual(['file']);
    expect(form?.encoding?.file?.contentType).toContain(type);
  });
});

describe('event kinds', () => {
  const kinds = () => [...PUBLIC_EVENT_KINDS];

  it('are an enum of the public kinds where a webhook takes them', () => {
    const body = doc.paths['/api/webhooks']?.post?.requestBody as
      | { content: Record<string, { schema: { properties: { events: { items: { enum?: string[] } } } } }> }
      | undefined;
    expect(body?.content['application/json']?.schema.properties.events.items.enum).toEqual(kinds());
  });

  it('are listed where the event history and stream filter by them', () => {
    for (const path of ['/api/transparency/events', '/api/transparency/events/history']) {
      const op = doc.paths[path]?.get as
        | (Operation & { parameters?: { name: string; description?: string; schema?: { description?: string } }[] })
        | undefined;
      const kind = op?.parameters?.find((p) => p.name === 'kind');
      const text = `${kind?.description ?? ''} ${kind?.schema?.description ?? ''}`;
      for (const k of kinds()) expect(text, `${path} ${k}`).toContain(k);
    }
  });
});

describe('webhooks section', () => {
  interface WebhookPost {
    parameters: { name: string; in: string }[];
    requestBody: {
      content: Record<string, { schema: { properties: Record<string, { const?: string }>; required: string[] } }>;
    };
  }
  const webhooks = () => (doc as unknown as { webhooks: Record<string, { post: WebhookPost }> }).webhooks;

  it('has one entry per public event kind', () => {
    expect(Object.keys(webhooks())).toEqual([...PUBLIC_EVENT_KINDS]);
  });

  it('shows each delivery as its body and the Standard Webhooks headers', () => {
    for (const kind of PUBLIC_EVENT_KINDS) {
      const post = webhooks()[kind]?.post as WebhookPost;
      const schema = post.requestBody.content['application/json']?.schema;
      expect(schema?.required, kind).toEqual(['type', 'event', 'timestamp', 'data', 'signature']);
      expect(schema?.properties.type?.const, kind).toBe(kind);
      expect(schema?.properties.event?.const, kind).toBe(kind);
      const headers = post.parameters.filter((p) => p.in === 'header').map((p) => p.name);
      expect(headers, kind).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']));
    }
    const registered = webhooks()['plant.registered']?.post.requestBody.content['application/json']?.schema;
    expect(
      Object.keys((registered?.properties.data as { properties?: object } | undefined)?.properties ?? {}).length,
    ).toBeGreaterThan(2);
  });
});

describe('cross-field rules', () => {
  it('are stated where a query takes a pair of fields (from/to, lat/lon, minPrice/maxPrice)', () => {
    const pairs = [
      ['from', 'to'],
      ['lat', 'lon'],
      ['minPrice', 'maxPrice'],
    ] as const;
    let checked = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const params = (op as { parameters?: { name: string; in: string; description?: string }[] }).parameters ?? [];
        const text = (name: string) => params.find((p) => p.in === 'query' && p.name === name)?.description;
        for (const [a, b] of pairs) {
          const first = text(a);
          if (first === undefined || text(b) === undefined) continue;
          checked++;
          // Required pairs (a centre of a nearby search) have no rule between them beyond being both there.
          const required = params.find((p) => p.name === a && (p as { required?: boolean }).required);
          if (required) continue;
          expect(first, `${method.toUpperCase()} ${path} ${a}`).toContain(`\`${b}\``);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
