import { type Bus, createNatsBus } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { plantRegister, plantSearch } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import { call, createLogger, type RunningService, type ServiceModule, startService } from '@rootline/host';
import { plantInput, startTestInfra, type TestInfra } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service } from '../src/service.js';

/** How many registrations a replica answered, from its own metrics. */
async function registrationsAnswered(replica: RunningService): Promise<number> {
  const text = await replica.metrics.metrics();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('endpoint_request_duration_seconds_count{') &&
        l.includes('subject="plants.plant.register"') &&
        l.includes('outcome="ok"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('search across plants replicas on NATS and PostgreSQL', () => {
  let infra: TestInfra;
  let client: Bus;
  const replicas: RunningService[] = [];
  const undo: (() => Promise<void>)[] = [];
  const writer = { requestId: 'req_search_writer', actor: { id: 'usr_writer', role: 'GROWER' as const } };
  const reader = { requestId: 'req_search_reader', actor: { id: 'usr_reader', role: 'GROWER' as const } };

  beforeAll(async () => {
    infra = await startTestInfra();
    undo.push(() => infra.stop());
    const log = createLogger('test', 'silent');
    // Every search computed, and each replica reading the changes often: what is measured is the index's feed.
    const env = { CHAIN_DIFFICULTY: '8', SEARCH_CACHE_MS: '0', SEARCH_INDEX_POLL_MS: '100' };
    // Each replica as its own process would run: its database pool, its bus connection, its in-memory index.
    const start = async (mod: ServiceModule<TObject>) => {
      const database: Database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
      undo.push(() => database.close());
      const bus = await createNatsBus({ url: infra.nats.url, name: mod.name });
      undo.push(() => bus.close());
      const running = await startService(mod, { bus, database, log, env });
      // Stopped once: by the test, or at the end.
      const stopOnce = running.stop;
      let stopped: Promise<void> | undefined;
      const stop = () => {
        stopped ??= stopOnce();
        return stopped;
      };
      undo.push(stop);
      return { ...running, stop };
    };
    await start(chainMiner);
    replicas.push(await start(service), await start(service));
    client = await createNatsBus({ url: infra.nats.url, name: 'test-client' });
    undo.push(() => client.close());
  });
  afterAll(async () => {
    for (const fn of undo.splice(0).reverse()) await fn();
  });

  it('finds a plant registered through one replica in a search answered by the other', async () => {
    const before = await call(client, plantSearch, { q: 'zinnia' }, reader);
    expect(before.items).toEqual([]);

    const reg = await call(
      client,
      plantRegister,
      plantInput({ commonName: 'Zinnia', scientificName: 'Zinnia elegans', owner: { id: 'usr_writer', name: 'W' } }),
      writer,
    );
    const answered = await Promise.all(replicas.map(registrationsAnswered));
    expect(answered.reduce((a, b) => a + b)).toBe(1);
    const through = replicas[answered.indexOf(1)]!;
    const other = replicas.find((r) => r !== through)!;
    // Only the other replica is left to answer; it never saw the request, only the database's change.
    await through.stop();

    await expect
      .poll(async () => (await call(client, plantSearch, { q: 'ZINNIA ELEGANS' }, reader)).items.map((p) => p.id), {
        timeout: 10_000,
      })
      .toEqual([reg.id]);
    const found = await call(client, plantSearch, { q: 'zinn', type: 'species' }, reader);
    expect(found.items).toMatchObject([
      { id: reg.id, commonName: 'Zinnia', match: { field: 'species', kind: 'prefix' } },
    ]);
    expect(found.pagination).toMatchObject({ total: 1, totalIsEstimate: false });
    expect(other.instanceId).not.toBe(through.instanceId);
  });
});
