import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { service as chainMiner } from '@rootline/chain-miner';
import { SERVICE_NAMES } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

describe('compliance report, dashboard and component health over HTTP', () => {
  let p: TestPlatform;
  let receiver: Server;
  let received = 0;
  const { privateKey } = generateKeyPairSync('ed25519');
  const grower = { id: 'usr_grower', name: 'Ada Grower' };
  const start = new Date(Date.now() - 60_000).toISOString();

  const report = async (query = '') =>
    p.http('GET', `/api/transparency/report${query}`, { role: 'ADMIN', sub: 'usr_admin' });

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received += 1;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    p = await startTestPlatform([chainMiner, plants, transparency], {
      CHAIN_DIFFICULTY: '8',
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '50',
    });
    // The grower's account first, under the name its plants carry.
    const token = await p.token('GROWER', grower.id, grower.name);
    const hook = await p.http('POST', '/api/webhooks', {
      role: 'GROWER',
      sub: grower.id,
      body: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ['plant.registered'],
        secret: 'a-secret-of-sixteen-chars',
      },
    });
    expect(hook.status).toBe(201);
    for (const privacyLevel of ['exact', 'city', 'city', 'hidden'] as const) {
      const res = await p.http('POST', '/api/plants/register', {
        token,
        body: plantInput({ owner: grower, privacyLevel }),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await p?.stop();
    await new Promise((r) => receiver?.close(r));
  });

  it('reports integrity, deliveries, privacy levels and retention for the period', async () => {
    // Deliveries are sent by the service's worker in the background.
    await expect
      .poll(async () => (await report()).body.data?.webhooks.delivered, { timeout: 60_000, interval: 200 })
      .toBe(4);
    expect(received).toBe(4);
    const res = await report();
    expect(res.status).toBe(200);
    const r = res.body.data;
    expect(r.auditLog).toMatchObject({ valid: true, firstInvalidIndex: null });
    expect(r.auditLog.entriesInPeriod).toBeGreaterThanOrEqual(4);
    expect(r.ledger).toMatchObject({ valid: true, complete: true, invalidBlocks: [] });
    expect(r.ledger.checkedTransactions).toBeGreaterThanOrEqual(4);
    expect(r.webhooks).toMatchObject({ delivered: 4, failed: 0, successRate: 1, webhooksActive: 1 });
    expect(r.privacy).toEqual({
      total: 4,
      byLevel: [
        { level: 'exact', count: 1 },
        { level: 'fuzzy', count: 0 },
        { level: 'city', count: 2 },
        { level: 'country', count: 0 },
        { level: 'hidden', count: 1 },
      ],
    });
    expect(r.events.byKind).toContainEqual({ kind: 'plant.registered', count: 4 });
    expect(r.retention.auditLog.policy).toContain('kept forever');
    expect(r.retention.publicHistory.events).toBe(4);
    // A period before anything happened holds nothing.
    const before = await report(`?from=2020-01-01T00:00:00Z&to=${start.slice(0, 19)}Z`);
    expect(before.body.data.privacy.total).toBe(0);
    expect(before.body.data.auditLog.entriesInPeriod).toBe(0);
  });

  it('dashboard: aggregates for every signed-in role', async () => {
    const res = await p.http('GET', '/api/transparency/dashboard', { role: 'USER', sub: 'usr_reader' });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.plants).toEqual({ registered: 4, last30d: 4 });
    expect(d.events.last24h).toBe(4);
    expect(d.auditLog.entries).toBeGreaterThanOrEqual(4);
    expect(d.transport).toEqual({ events: 0, distanceKm: 0, kgCo2e: 0 });
    expect(d.webhooks).toMatchObject({ active: 1, delivered: 4 });
    expect(JSON.stringify(d)).not.toContain('usr_grower');
  });

  it('health: each service with its latency, the database, bus, outbox and consumer', async () => {
    const res = await p.http('GET', '/api/transparency/health', { role: 'ADMIN', sub: 'usr_admin' });
    expect(res.status).toBe(200);
    const h = res.body.data;
    expect(h.services.map((s: { service: string }) => s.service)).toEqual([...SERVICE_NAMES]);
    const running = h.services.filter((s: { status: string }) => s.status === 'ok');
    expect(running.map((s: { service: string }) => s.service).sort()).toEqual([
      'chain-miner',
      'plants',
      'transparency',
    ]);
    for (const s of running) {
      expect(s).toMatchObject({ database: 'ok', error: null });
      expect(s.instances).toBeGreaterThanOrEqual(1);
      expect(s.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(h.services.find((s: { service: string }) => s.service === 'notify')).toMatchObject({
      status: 'down',
      instances: 0,
      latencyMs: null,
    });
    // Services of the platform are missing in this test, so the whole is down while its parts answer.
    expect(h.status).toBe('down');
    expect(h.database.status).toBe('ok');
    expect(h.bus.status).toBe('ok');
    expect(h.bus.instances).toBeGreaterThanOrEqual(3);
    expect(h.outbox.backlog).toBeGreaterThanOrEqual(0);
    expect(h.consumer.lastDelaySeconds).toBeGreaterThanOrEqual(0);
  });

  it('finds a changed audit entry', async () => {
    await p.database.db.execute(
      sql`update transparency.audit_entries set body = replace(body, '"plant.registered"', '"plant.removed"') where index = (select min(index) from transparency.audit_entries where kind = 'plant.registered')`,
    );
    const r = (await report()).body.data;
    expect(r.auditLog.valid).toBe(false);
    expect(r.auditLog.firstInvalidIndex).not.toBeNull();
  });

  it('keeps the report and health to ADMIN and everything to signed-in callers', async () => {
    expect((await p.http('GET', '/api/transparency/report', { role: 'GROWER', sub: 'usr_g2' })).status).toBe(403);
    expect((await p.http('GET', '/api/transparency/health', { role: 'USER', sub: 'usr_u2' })).status).toBe(403);
    expect((await p.http('GET', '/api/transparency/dashboard')).status).toBe(401);
    const bad = await report('?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect((await report('?from=last-week')).status).toBe(400);
  });
});
