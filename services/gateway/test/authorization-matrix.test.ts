import { ROLES, type Role, roleHas } from '@rootline/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutePolicyEntry } from '../src/plugins/auth.js';
import { seedSession, startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;
let routes: RoutePolicyEntry[];

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus, {
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
    RATE_LIMIT_SESSION_PER_MINUTE: '100000',
    RATE_LIMIT_PER_HOUR_PER_USER: '100000',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    REQUEST_TIMEOUT_MS: '200',
  });
  await app.ready();
  // Every route registered, whoever added it: the table is read from the gateway, not written by hand.
  routes = app.routePolicies.filter((r) => r.url.startsWith('/api/'));
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

/** A concrete URL for a route pattern: each parameter and wildcard gets a placeholder value. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'x').replace('*', 'x');

/**
 * Calls a route; a handler that streams or waits longer than the guard would answer counts as "let in", and so does
 * a refusal by the route's object rule (the placeholder names someone else's record), which comes after the
 * permission was granted.
 */
async function call(route: RoutePolicyEntry, headers: Record<string, string>): Promise<number> {
  const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  const res = app.inject({
    method: route.method as 'GET',
    url: concrete(route.url),
    headers,
    ...(withBody ? { payload: {} } : {}),
  });
  const late = new Promise<number>((resolve) => setTimeout(() => resolve(0), 3_000).unref());
  const status = res.then((r) => {
    const reason = r.statusCode === 403 ? (r.json() as { error?: { details?: { reason?: string } } }).error : null;
    return reason?.details?.reason === 'not-self' ? 0 : r.statusCode;
  });
  return Promise.race([status, late]);
}

/**
 * The status of every route, in the order of `routes`, each called with fresh `headers()`: eight calls at a time, as
 * most of them wait out the gateway's request timeout (no service answers here) and one after the other that wait
 * adds up to minutes.
 */
async function statuses(headers: () => Promise<Record<string, string>>): Promise<number[]> {
  const out: number[] = new Array(routes.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < routes.length; i = next++) out[i] = await call(routes[i]!, await headers());
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  return out;
}

/** A walk of every route: hundreds of calls, which a loaded machine can stretch past the default 30 s. */
const WALK = { timeout: 120_000 };

const caller = async (role: Role) => ({
  authorization: `Bearer ${(await seedSession(bus.database, role, `usr_matrix_${role.toLowerCase()}`)).token}`,
});

describe('authorisation matrix: every route, anonymous and each role, against the declared table', () => {
  it('finds the routes of every domain', () => {
    const prefixes = new Set(routes.map((r) => r.url.split('/')[2]));
    for (const domain of ['auth', 'admin', 'plants', 'health']) expect(prefixes.has(domain), domain).toBe(true);
    expect(routes.length).toBeGreaterThan(20);
  });

  it('answers 401 to anonymous callers of protected routes, and lets them reach public ones', WALK, async () => {
    const mismatches: string[] = [];
    const got = await statuses(async () => ({}));
    for (const [i, route] of routes.entries()) {
      const status = got[i]!;
      const expected = route.access === 'public' ? 'not 401/403' : '401';
      const ok = route.access === 'public' ? status !== 401 && status !== 403 : status === 401;
      if (!ok) mismatches.push(`${route.method} ${route.url} (${route.access}): ${status}, expected ${expected}`);
    }
    expect(mismatches).toEqual([]);
  });

  for (const role of ROLES) {
    it(`lets ${role} through exactly where its permissions say`, WALK, async () => {
      const mismatches: string[] = [];
      // A fresh session per call: some routes (sign-out) end the one they are called with.
      const got = await statuses(() => caller(role));
      for (const [i, route] of routes.entries()) {
        const status = got[i]!;
        const allowed = route.access === 'public' || roleHas(role, route.access);
        const ok = allowed ? status !== 401 && status !== 403 : status === 403;
        if (!ok) {
          mismatches.push(
            `${route.method} ${route.url} (${route.access}): ${status}, expected ${allowed ? 'allowed' : '403'}`,
          );
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});
