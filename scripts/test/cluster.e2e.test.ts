import { type ErrorEnvelope, plantRegistered, SERVICE_NAMES } from '@rootline/contracts';
import { api, type NatsServerHandle, plantInput } from '@rootline/testing';
import { connect } from 'nats';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterHandle, restartDelayMs, waitReady } from '../src/cluster-host.js';
import { startTestCluster, type TestCluster } from './test-cluster.js';

/**
 * Transactions a second the whole cluster may commit while nobody uses it: lease renewals, safety polls and
 * scheduled claims. About 12 on 2026-11-26 (23 before the outbox relays waited 5 s between polls and the webhook
 * worker's lanes joined only when there was work); counted, not timed, so a timer that polls too often shows here.
 */
const AT_REST_PER_SECOND = 16;

describe('cluster mode: one process per service on NATS and PostgreSQL', () => {
  let t: TestCluster;
  let nats: NatsServerHandle;
  let cluster: ClusterHandle;
  /** The first ADMIN's session (ADMIN_EMAIL and ADMIN_PASSWORD at start-up). */
  let token: string;

  const register = (commonName: string) =>
    api(cluster.url, '/api/plants/register', { token, body: plantInput({ commonName }) });

  beforeAll(async () => {
    // A low difficulty: this test is about processes dying, not proof of work, and must not starve on a busy machine.
    t = await startTestCluster({ env: { REQUEST_TIMEOUT_MS: '3000', CHAIN_DIFFICULTY: '10' } });
    ({ nats, cluster, token } = t);
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
  });

  it('$SRV.PING lists every running service, and the gateway (it serves email links)', async () => {
    const nc = await connect({ servers: nats.url });
    const names = new Set<string>();
    for await (const info of await nc.services.client().ping()) names.add(info.name);
    await nc.close();
    expect([...names].sort()).toEqual([...SERVICE_NAMES, 'gateway'].sort());
  });

  it('at rest commits only the few transactions of its timers', async () => {
    const sql = postgres(t.db.url, { max: 1, onnotice: () => {} });
    try {
      const committed = async () =>
        Number(
          (await sql<{ n: string }[]>`select xact_commit as n from pg_stat_database where datname = ${t.db.name}`)[0]!
            .n,
        );
      // Start-up work (migrations, the genesis block, first runs of jobs) has settled.
      await new Promise((r) => setTimeout(r, 10_000));
      const before = await committed();
      const seconds = 15;
      await new Promise((r) => setTimeout(r, seconds * 1000));
      // Less this query's own transaction.
      const perSecond = (await committed()) - before - 1;
      expect(perSecond / seconds, `${perSecond} transactions in ${seconds} s`).toBeLessThan(AT_REST_PER_SECOND);
    } finally {
      await sql.end();
    }
  }, 60_000);

  it('registers and reads a plant through the gateway', async () => {
    const res = await register('Rosemary');
    expect(res.status).toBe(201);
    const { data } = res.body;
    const got = await api(cluster.url, `/api/plants/${data.id}`, { token });
    expect(got.body.data).toMatchObject({ id: data.id, commonName: 'Rosemary', block: { hash: data.blockHash } });
  });

  it('answers 503 while plants is down and loses no acknowledged registration', async () => {
    const acknowledged: string[] = [];
    const failures: number[] = [];
    let running = true;
    // Registrations keep arriving while the plants process is killed and restarted.
    const load = (async () => {
      for (let i = 0; running; i++) {
        const res = await register(`Thyme ${i}`).catch(() => ({ status: 0, body: null }));
        if (res.status === 201) acknowledged.push(res.body.data.id);
        else failures.push(res.status);
      }
    })();
    // Whatever happens below, the load stops with the test (no request may outlive the cluster).
    try {
      await expect.poll(() => acknowledged.length, { timeout: 10_000 }).toBeGreaterThan(5);

      const plants = cluster.processes.get('plants')!;
      await plants.kill('SIGKILL');
      const down = await register('Sage');
      expect(down.status).toBe(503);
      expect(down.body as ErrorEnvelope).toMatchObject({ success: false, data: null, error: { code: 'UNAVAILABLE' } });
      const ready = await api(cluster.url, '/api/health/ready');
      expect(ready.status).toBe(503);

      plants.restart();
      await waitReady(cluster.url, 30_000);
      const countAtRestart = acknowledged.length;
      await expect.poll(() => acknowledged.length, { timeout: 15_000 }).toBeGreaterThan(countAtRestart + 5);
    } finally {
      running = false;
      await load;
    }

    expect(failures.every((s) => s === 503)).toBe(true);
    for (const id of acknowledged) {
      const res = await api(cluster.url, `/api/plants/${id}`, { token });
      expect(res.status, `acknowledged plant ${id} must survive`).toBe(200);
    }

    // Every acknowledged registration produced its plant.registered event on the durable stream.
    const nc = await connect({ servers: nats.url });
    const jsm = await nc.jetstreamManager();
    const seen = new Set<string>();
    await jsm.consumers.add('EVENTS', {
      durable_name: 'e2e-check',
      filter_subject: plantRegistered.subject,
      ack_policy: 'none' as never,
    });
    const consumer = await nc.jetstream().consumers.get('EVENTS', 'e2e-check');
    const info = await consumer.info();
    const batch = await consumer.fetch({ max_messages: info.num_pending, expires: 2000 });
    for await (const m of batch) {
      seen.add((m.json() as { payload: { plantId: string } }).payload.plantId);
      if (seen.size >= info.num_pending) break;
    }
    await nc.close();
    for (const id of acknowledged) expect(seen.has(id), `event for ${id}`).toBe(true);
  }, 90_000);

  it('restarts a service that dies on its own (kill -9), and the restarted process answers', async () => {
    const plants = cluster.processes.get('plants')!;
    const before = { pid: plants.pid!, restarts: plants.restarts };
    process.kill(before.pid, 'SIGKILL');
    await expect.poll(() => plants.restarts, { timeout: 10_000 }).toBe(before.restarts + 1);
    expect(plants.pid).not.toBe(before.pid);
    await waitReady(cluster.url, 30_000);
    const res = await register('Oregano');
    expect(res.status).toBe(201);
    const got = await api(cluster.url, `/api/plants/${res.body.data.id}`, { token });
    expect(got.body.data).toMatchObject({ commonName: 'Oregano' });
    // Crashing again and again backs off, up to 10 s between attempts.
    expect([1, 2, 3, 10, 100].map((n) => restartDelayMs(n))).toEqual([250, 500, 1000, 10_000, 10_000]);
  }, 60_000);
});
