import { chainBlockVerify, plantGet, plantLineageGet, plantRegister } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { type BusRouteDeps, busRoute, requestParts, type TypeBoxInstance } from '../src/http/bus-route.js';

/**
 * Routes that disagree with their contract. This function is never called: `pnpm typecheck` checks it, and each
 * `@ts-expect-error` fails the type check if the route it marks ever compiles.
 */
export function routesThatMustNotCompile(app: TypeBoxInstance, deps: BusRouteDeps): void {
  const base = {
    summary: 's',
    tags: ['T'],
    policy: { permission: 'plants:write' as const, object: { rule: 'none' as const } },
  };

  // A body the subject does not take (route schemas came from anywhere): refused.
  busRoute(app, deps, {
    ...base,
    method: 'POST',
    url: '/register',
    subject: plantRegister,
    // @ts-expect-error a route takes its body from the contract, it cannot declare its own
    body: Type.Object({ colour: Type.String() }),
  });

  // A path parameter the request does not have.
  busRoute(app, deps, {
    ...base,
    method: 'GET',
    // @ts-expect-error "colour" is not a key of plants.plant.get's request
    url: '/:colour',
    subject: plantGet,
  });

  // A query key the request does not have.
  busRoute(app, deps, {
    ...base,
    method: 'POST',
    url: '/register',
    subject: plantRegister,
    // @ts-expect-error "colour" is not a key of plants.plant.register's request
    query: ['colour'],
  });

  // The same routes written from the contract compile.
  busRoute(app, deps, { ...base, method: 'POST', url: '/register', subject: plantRegister });
  busRoute(app, deps, { ...base, method: 'GET', url: '/lineage/:plantId', subject: plantLineageGet });
  busRoute(app, deps, { ...base, method: 'GET', url: '/blocks/:hash/verify', subject: chainBlockVerify });
}

describe('a bus route takes its request parts from the contract (route schemas used to repeat or contradict it)', () => {
  it('splits a GET request into path parameters and query, each part refusing unknown names', () => {
    const parts = requestParts({ method: 'GET', url: '/lineage/:plantId', subject: plantLineageGet });
    expect(Object.keys(parts.params?.properties ?? {})).toEqual(['plantId']);
    expect(parts.params?.properties.plantId).toBe(plantLineageGet.request.properties.plantId);
    expect(Object.keys(parts.querystring.properties)).toEqual(['pedigreeDepth', 'progenyDepth']);
    expect(parts.querystring.additionalProperties).toBe(false);
    expect(parts.params?.additionalProperties).toBe(false);
    expect(parts.body).toBeUndefined();
  });

  it('makes the rest of a POST request its body, with the contract schemas of each field', () => {
    const parts = requestParts({ method: 'POST', url: '/register', subject: plantRegister });
    expect(parts.params).toBeUndefined();
    expect(parts.querystring.properties).toEqual({});
    expect(parts.body?.properties).toEqual(plantRegister.request.properties);
    expect(parts.body?.required).toEqual(plantRegister.request.required);
    expect(parts.body?.additionalProperties).toBe(false);
  });

  it('refuses at start-up a path parameter the request lacks (for routes typed loosely)', () => {
    expect(() => requestParts({ method: 'GET', url: '/:colour', subject: plantGet })).toThrow(
      'plants.plant.get: "colour" is not a key of its request',
    );
  });
});
