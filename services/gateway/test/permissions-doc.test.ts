import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS_DOC, renderPermissionsDoc } from '../src/http/permissions-doc.js';
import { startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

describe(PERMISSIONS_DOC, () => {
  it('matches the routes the gateway declares (regenerate: pnpm --filter @rootline/gateway docs:permissions)', async () => {
    const file = await readFile(new URL(`../../../${PERMISSIONS_DOC}`, import.meta.url), 'utf8');
    expect(file).toBe(renderPermissionsDoc(app.routePolicies));
  });

  it('lists every /api route with what it requires', () => {
    const doc = renderPermissionsDoc(app.routePolicies);
    const rows = doc.split('\n').map((l) => l.split('|').map((c) => c.trim()));
    const row = (first: string, second: string) => rows.find((r) => r[1] === first && r[2] === second);
    expect(row('PUT', '`/api/admin/users/:userId/role`')?.slice(3, 5)).toEqual(['`admin:users`', 'ADMIN']);
    expect(row('POST', '`/api/auth/signin`')?.slice(3, 5)).toEqual(['public', 'anyone']);
    expect(rows.find((r) => r[1] === '`farm:write`')?.slice(2, 6)).toEqual(['', '', 'yes', 'yes']);
    for (const route of app.routePolicies) {
      const shown = route.aliasOf ? `\`${route.url}\` (former path)` : `\`${route.url}\``;
      expect(row(route.method, shown), route.url).toBeDefined();
    }
    // A former path kept working is listed with the path that replaced it.
    expect(doc).toContain('- `/api/vertical-farm/:farmId/zones` is `/api/vertical-farm/farms/:farmId/zones`');
  });
});
