import { Plant } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { liftNamedSchemas } from './named-schemas.js';

const json = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

describe('named schemas in the document', () => {
  const response = (schema: unknown) => ({ responses: { 200: { content: { 'application/json': { schema } } } } });
  const lifted = liftNamedSchemas({
    openapi: '3.1.0',
    paths: {
      '/a': { get: response({ type: 'array', items: json(Plant) }) },
      '/b': { get: response({ type: 'object', properties: { plant: json(Plant) } }) },
      '/c': { patch: response(json(Type.Partial(Plant))) },
      '/d': { get: { ...response({ type: 'string' }), examples: [{ title: 'Plant' }] } },
    },
    components: { schemas: { Pagination: { type: 'object' } } },
  }) as unknown as {
    paths: Record<
      string,
      Record<string, { responses: { 200: { content: { 'application/json': { schema: never } } } } }>
    >;
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  const schemaOf = (path: string, method: string) =>
    lifted.paths[path]?.[method]?.responses[200].content['application/json'].schema as unknown as Record<
      string,
      unknown
    >;

  it('lists a named schema once and refers to it wherever it appears', () => {
    expect(schemaOf('/a', 'get')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Plant' } });
    expect(schemaOf('/b', 'get')).toMatchObject({ properties: { plant: { $ref: '#/components/schemas/Plant' } } });
    expect(lifted.components.schemas.Plant).toMatchObject({ title: 'Plant', type: 'object' });
    // What the schema names inside is named too.
    expect(lifted.components.schemas.Plant?.properties).toMatchObject({
      owner: { $ref: '#/components/schemas/RecordedParty' },
      location: { anyOf: [{ $ref: '#/components/schemas/Location' }, { type: 'null' }] },
    });
    expect(Object.keys(lifted.components.schemas)).toEqual(
      expect.arrayContaining(['Pagination', 'Location', 'RecordedParty']),
    );
  });

  it('leaves in place, without the inherited title, a schema derived from a named one', () => {
    const partial = schemaOf('/c', 'patch');
    expect(partial.$ref).toBeUndefined();
    expect(partial.title).toBeUndefined();
    expect(partial.required).toBeUndefined();
  });

  it('leaves examples alone', () => {
    expect((lifted.paths['/d']?.get as unknown as { examples?: unknown } | undefined)?.examples).toEqual([
      { title: 'Plant' },
    ]);
  });
});
