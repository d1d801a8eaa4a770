import { startTestBus, type TestBus, testGateway } from '@rootline/gateway/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Operation {
  requestBody?: { content: Record<string, { schema: object; example?: unknown }> };
}

let bus: TestBus;
let app: Awaited<ReturnType<typeof testGateway>>;
let paths: Record<string, Record<string, Operation>>;
let components: object;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  ({ paths, components } = (await app.inject({ url: '/api/openapi.json' })).json());
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

describe('demand and marketplace request examples', () => {
  it('exist for every request body and are valid against it', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const bodies = Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/demand') || path.startsWith('/api/marketplace'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).flatMap(([method, op]) => {
          const media = op.requestBody?.content['application/json'];
          return media ? [{ where: `${method.toUpperCase()} ${path}`, ...media }] : [];
        }),
      );
    // demand: preferences, signal, supply, match, import; marketplace: listing, change, status, offer, counter, review,
    // wishlist.
    expect(bodies.length).toBe(12);
    for (const { where, schema, example } of bodies) {
      expect(example, where).toBeDefined();
      // Named schemas (Location…) are references into the document's components.
      const validate = ajv.compile({ ...schema, components });
      expect(validate(example) ? [] : validate.errors, where).toEqual([]);
    }
  });
});
