import { api, leafHashOf, plantInput, rootFromProof } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterHandle } from '../src/cluster-host.js';
import { startTestCluster, type TestCluster } from './test-cluster.js';

interface Acknowledged {
  id: string;
  blockHash: string;
}

describe('ledger scale-out: two chain-miner processes, the appender killed under load', () => {
  let t: TestCluster;
  let cluster: ClusterHandle;
  let token: string;

  const stats = async () => (await api(cluster.url, '/api/chain/stats')).body.data;
  const minerByPid = (process: string) => {
    const pid = Number(process.split('/').at(-1));
    const name = ['chain-miner-1', 'chain-miner-2'].find((n) => cluster.processes.get(n)?.pid === pid);
    if (!name) throw new Error(`no chain-miner process has pid ${pid}`);
    return name;
  };

  beforeAll(async () => {
    t = await startTestCluster({
      miners: 2,
      env: { CHAIN_DIFFICULTY: '8', CHAIN_LEASE_MS: '1000', CHAIN_MINER_THREADS: '1' },
    });
    ({ cluster, token } = t);
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
  });

  it('keeps one chain with no fork, no gap and no lost acknowledged registration', async () => {
    const first = await stats();
    expect(first.appender).not.toBeNull();
    const appenderName = minerByPid(first.appender.process);
    const survivorName = appenderName === 'chain-miner-1' ? 'chain-miner-2' : 'chain-miner-1';

    const acknowledged: Acknowledged[] = [];
    const failures: number[] = [];
    let running = true;
    const client = async () => {
      while (running) {
        const res = await api(cluster.url, '/api/plants/register', { token, body: plantInput() });
        if (res.status === 201) acknowledged.push({ id: res.body.data.id, blockHash: res.body.data.blockHash });
        else failures.push(res.status);
      }
    };
    const load = Promise.all(Array.from({ length: 12 }, client));
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(50);

    await cluster.processes.get(appenderName)!.kill('SIGKILL');
    const atKill = acknowledged.length;
    await expect.poll(async () => (await stats()).appender?.process, { timeout: 10_000 }).toMatch(/\/\d+$/);
    await expect.poll(async () => minerByPid((await stats()).appender.process), { timeout: 10_000 }).toBe(survivorName);
    // The chain goes on under the same load.
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(atKill + 50);
    running = false;
    await load;

    const after = await stats();
    expect(after.appender.term).toBeGreaterThan(first.appender.term);
    // Only the registrations in flight on the killed process may fail, and only as errors, never as a 201.
    expect(failures.length).toBeLessThan(50);
    // A dead appender is an outage (503 UNAVAILABLE with Retry-After), never 500 CHAIN_ERROR.
    for (const s of failures) expect(s).toBe(503);

    // The whole chain verifies, range by range, and every height from 0 to the tip is there exactly once.
    let from: number | null = 0;
    let checked = 0;
    while (from !== null) {
      const res = await api(cluster.url, `/api/chain/verify?from=${from}`);
      expect(res.body.data).toMatchObject({ valid: true, invalidBlocks: [] });
      checked += res.body.data.checkedBlocks;
      from = res.body.data.next;
    }
    const final = await stats();
    expect(checked).toBe(final.chainLength);
    expect(final.tip.index).toBe(final.chainLength - 1);

    // Every acknowledged registration is in the chain, in the block it was told, with a proof that holds.
    for (const ack of acknowledged) {
      const plant = await api(cluster.url, `/api/plants/${ack.id}`, { token });
      expect(plant.status, ack.id).toBe(200);
      expect(plant.body.data.block.hash).toBe(ack.blockHash);
      const proof = (await api(cluster.url, `/api/chain/transactions/${plant.body.data.block.txId}/proof`)).body.data;
      expect(proof.blockHash, ack.id).toBe(ack.blockHash);
      const leafHash = leafHashOf(proof.leaf);
      const path = proof.auditPath.map((h: string) => Buffer.from(h, 'hex'));
      expect(rootFromProof(proof.leafIndex, proof.treeSize, leafHash, path), ack.id).toBe(proof.merkleRoot);
    }

    // The killed process comes back as a helper of the surviving appender.
    cluster.processes.get(appenderName)!.restart();
    await expect.poll(async () => (await stats()).appender?.helpers, { timeout: 30_000 }).toBe(1);
    expect(minerByPid((await stats()).appender.process)).toBe(survivorName);
  }, 120_000);
});
