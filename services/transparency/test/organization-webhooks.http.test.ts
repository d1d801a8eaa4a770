import { generateKeyPairSync } from 'node:crypto';
import { actingCaller, seedOrganization, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// An organization's webhooks are its integrations, secrets and all: kept by its owners and managers acting for it,
// hidden from its members and viewers (ADR 237).
describe('webhooks of an organization, over HTTP', () => {
  let p: TestPlatform;
  let orgId: string;
  let hookId: string;
  const tokens: Record<string, string> = {};
  /** A call by one of the accounts, acting for the organization unless `alone`. */
  const as = actingCaller(
    () => p,
    tokens,
    () => orgId,
  );
  const hook = { url: 'http://127.0.0.1:9/hook', events: ['plant.registered'] };

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    for (const sub of ['usr_orgw_manager', 'usr_orgw_member']) tokens[sub] = await p.token('USER', sub);
    orgId = await seedOrganization(p.database, 'Hook Growers', {
      usr_orgw_manager: 'manager',
      usr_orgw_member: 'member',
    });
  });
  afterAll(async () => p?.stop());

  it('is made and listed by a manager acting for the organization, which owns it', async () => {
    const member = await as('usr_orgw_member', 'POST', '/api/webhooks', hook);
    expect(member.status).toBe(403);
    expect(member.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    const made = await as('usr_orgw_manager', 'POST', '/api/webhooks', hook);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    hookId = made.body.data.id;
    expect(made.body.data.ownerId).toBe(orgId);
    const listed = await as('usr_orgw_manager', 'GET', '/api/transparency/webhooks');
    expect(listed.body.data.map((h: { id: string }) => h.id)).toEqual([hookId]);
    // Alone, the manager's own list is another one.
    expect((await as('usr_orgw_manager', 'GET', '/api/transparency/webhooks', undefined, true)).body.data).toEqual([]);
  });

  it('is read, changed and deleted by a manager only', async () => {
    const url = `/api/transparency/webhooks/${hookId}`;
    expect((await as('usr_orgw_member', 'GET', url)).status).toBe(403);
    expect((await as('usr_orgw_manager', 'GET', url, undefined, true)).status).toBe(403);
    expect((await as('usr_orgw_manager', 'GET', url)).status).toBe(200);
    expect((await as('usr_orgw_member', 'DELETE', url)).status).toBe(403);
    const deleted = await as('usr_orgw_manager', 'DELETE', url);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
  });
});
