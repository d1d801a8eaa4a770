import { randomUUID } from 'node:crypto';
import { api, type NatsServerHandle, plantInput, type TestDatabase } from '@rootline/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterHandle, waitReady } from '../src/cluster-host.js';
import { startTestCluster, type TestCluster } from './test-cluster.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * kill -9 of each process during registrations (cluster mode: real processes, a private nats-server and
 * PostgreSQL database). Clients retry with their Idempotency-Key until they get 201, as a client after a timeout
 * would. Afterwards every ledger transaction of a plant has its plant, and each client's key has one plant.
 */
describe('cluster mode: kill -9 during registrations leaves no ledger transaction without its plant', () => {
  let t: TestCluster;
  let nats: NatsServerHandle;
  let db: TestDatabase;
  let sql: postgres.Sql;
  let cluster: ClusterHandle;
  let token: string;

  beforeAll(async () => {
    t = await startTestCluster({
      env: {
        LOG_LEVEL: 'error',
        REQUEST_TIMEOUT_MS: '3000',
        CHAIN_DIFFICULTY: '10',
        LEDGER_RECOVER_AFTER_SECONDS: '2',
        IDEMPOTENCY_LOCK_SECONDS: '2',
      },
    });
    ({ nats, db, cluster, token } = t);
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await t?.stop();
  });

  it('finishes or recovers every registration across kills of plants, chain-miner, gateway and nats-server', async () => {
    /** Each key and the plant its client was finally answered with. */
    const answered = new Map<string, string>();
    const retried: number[] = [];
    /** Writes a killed plants process left unfinished (their intents), to be recovered. */
    let cut = 0;
    let running = true;

    /** One client: a new key per registration, retried with the same key and body until 201. */
    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const key = randomUUID();
        const body = plantInput({ commonName: `Kill ${n}-${i} ${key.slice(0, 8)}` });
        for (let attempt = 0; ; attempt++) {
          const res = await api(cluster.url, '/api/plants/register', {
            token,
            body,
            headers: { 'idempotency-key': key },
          }).catch(() => undefined);
          if (res?.status === 201) {
            answered.set(body.commonName, res.body.data.id);
            if (attempt > 0) retried.push(attempt);
            break;
          }
          if (res && ![409, 503, 502, 504].includes(res.status)) {
            throw new Error(`unexpected answer ${res.status}: ${JSON.stringify(res.body)}`);
          }
          if (attempt > 200) throw new Error(`registration ${body.commonName} never succeeded`);
          await sleep(200);
        }
      }
    };
    const clients = Array.from({ length: 6 }, (_, n) => client(n));

    const kill = async (name: string) => {
      await expect.poll(() => answered.size, { timeout: 30_000 }).toBeGreaterThan(0);
      const before = answered.size;
      if (name === 'plants') {
        // Kill it with registrations in flight (intents written, not yet stored), however busy the machine is:
        // the chain-miner is frozen first, so no receipt can reach plants and no intent can be stored before the
        // kill. (Killed at a random moment instead, plants may be storing its last batch, and PostgreSQL finishes
        // a statement it has received even when its client dies.) The frozen miner mines them once thawed, after
        // plants died: exactly a ledger write without its row, unless the intent is recovered.
        const miner = cluster.processes.get('chain-miner')!.pid!;
        process.kill(miner, 'SIGSTOP');
        try {
          // Replies sent before the freeze land, and the clients' next registrations write their intents.
          await sleep(500);
          await expect
            .poll(async () => (await sql`select count(*)::int as n from plants.ledger_intents`)[0]!.n, {
              timeout: 20_000,
              interval: 20,
            })
            .toBeGreaterThan(0);
          await cluster.processes.get(name)!.kill('SIGKILL');
          cut += (await sql`select count(*)::int as n from plants.ledger_intents`)[0]!.n;
        } finally {
          process.kill(miner, 'SIGCONT');
        }
      } else {
        await cluster.processes.get(name)!.kill('SIGKILL');
      }
      await sleep(300);
      cluster.processes.get(name)!.restart();
      await waitReady(cluster.url, 60_000);
      await expect.poll(() => answered.size, { timeout: 30_000 }).toBeGreaterThan(before + 3);
    };

    try {
      await kill('plants');
      await kill('chain-miner');
      await kill('gateway');
      const before = answered.size;
      await nats.kill();
      await sleep(500);
      await nats.restart();
      await waitReady(cluster.url, 60_000);
      await expect.poll(() => answered.size, { timeout: 60_000 }).toBeGreaterThan(before + 3);
      await kill('plants');
    } finally {
      running = false;
    }
    await Promise.all(clients);

    // The recovery sweep finishes what the kills left: no open intent, none given up.
    await expect
      .poll(async () => (await sql`select count(*)::int as n from plants.ledger_intents`)[0]!.n, { timeout: 30_000 })
      .toBe(0);

    // Every plant transaction on the ledger has its plant, stored with that transaction.
    const orphans = await sql`
      select t.id, t.type from chain.transactions t left join plants.plants p on p.tx_id = t.id
      where t.type in ('plant.register', 'plant.clone') and p.id is null`;
    expect(orphans).toEqual([]);
    // Each client's key gave one plant (its name is unique to the key), the one it was answered with.
    const names = [...answered.keys()];
    const stored = await sql<{ common_name: string; id: string }[]>`
      select common_name, id from plants.plants where common_name = any(${names})`;
    expect(stored).toHaveLength(names.length);
    for (const row of stored) expect(answered.get(row.common_name)).toBe(row.id);
    const [ledger] = await sql`select count(*)::int as n from chain.transactions where type = 'plant.register'`;
    const [plants] = await sql`select count(*)::int as n from plants.plants`;
    expect(ledger!.n).toBe(plants!.n);
    // The kills did cut registrations: some left intents behind, and some clients were answered only on a retry.
    expect(cut).toBeGreaterThan(0);
    expect(retried.length).toBeGreaterThan(0);
  }, 300_000);
});
