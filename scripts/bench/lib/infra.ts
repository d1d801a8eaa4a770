import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  type NatsServerHandle,
  startNatsServer,
  startPostgresServer,
  type TestDatabase,
  testAdminUrl,
} from '@rootline/testing';
import { canConnect } from '../../src/cluster-host.js';
import { findPids } from './proc-cpu.js';
import type { BenchContext } from './types.js';

export interface BenchInfra {
  nats: NatsServerHandle;
  db: TestDatabase;
  /** The pids of this benchmark's nats-server. */
  natsPids: () => number[];
  /** The pids of the PostgreSQL backends serving this benchmark's database. */
  pgPids: () => number[];
  /** A temporary directory for CPU profiles, removed with the scope. */
  profileDir: string;
  /** Admin URL of the server holding `db`: the private one when asked for, else that of TEST_DATABASE_URL. */
  adminUrl: string;
}

export interface BenchInfraOptions {
  /**
   * Start a private PostgreSQL server with these settings (e.g. pg_stat_statements preloaded) and make the fresh
   * database there, instead of on the server of TEST_DATABASE_URL.
   */
  privatePostgres?: Record<string, string>;
}

/**
 * What a benchmark runs against: a private nats-server and a fresh PostgreSQL database on the server of
 * TEST_DATABASE_URL, with finders of their processes and a profile directory, all removed when the benchmark's scope closes, whatever way it ends.
 */
export async function startBenchInfra(ctx: BenchContext, opts: BenchInfraOptions = {}): Promise<BenchInfra> {
  let adminUrl = testAdminUrl();
  if (opts.privatePostgres) {
    ctx.log('starting a private PostgreSQL server');
    const server = await startPostgresServer({ settings: opts.privatePostgres });
    ctx.scope.defer(() => server.stop());
    adminUrl = server.adminUrl;
  } else {
    const admin = new URL(adminUrl);
    if (!(await canConnect(admin.hostname, Number(admin.port || 5432)))) {
      throw new Error(`PostgreSQL is unreachable at ${admin.host} (TEST_DATABASE_URL)`);
    }
  }
  ctx.log('starting a private nats-server and a fresh database');
  const nats = await startNatsServer();
  ctx.scope.defer(() => nats.stop());
  const db = await createTestDatabase('rl_bench', adminUrl);
  ctx.scope.defer(() => db.drop());
  const profileDir = await mkdtemp(join(tmpdir(), 'rootline-bench-'));
  ctx.scope.defer(() => rm(profileDir, { recursive: true, force: true }));
  return {
    nats,
    db,
    natsPids: () => findPids((cmd) => cmd.includes('nats-server') && cmd.includes(` -p ${nats.port} `)),
    // Backends are titled `postgres: <cluster>: <user> <database> <client> <state>`.
    pgPids: () => findPids((cmd) => cmd.startsWith('postgres: ') && cmd.includes(` ${db.name} `)),
    profileDir,
    adminUrl,
  };
}
