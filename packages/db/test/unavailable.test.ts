import { freePort, testAdminUrl } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/unavailable.js';

/** The error a promise rejects with. */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err,
  );

describe('isDatabaseUnavailable, on errors from a real PostgreSQL and a closed port', () => {
  const clients: postgres.Sql[] = [];
  const client = (url: string) => {
    const c = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
    clients.push(c);
    return c;
  };
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end({ timeout: 1 }).catch(() => {})));
  });

  it('is true for a refused connection, raw or wrapped by drizzle', async () => {
    const down = client(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`);
    const raw = await failure(down`select 1`);
    expect(isDatabaseUnavailable(raw)).toBe(true);
    const wrapped = await failure(drizzle(down).execute(sql`select 1`));
    expect((wrapped as { cause?: unknown }).cause).toBeDefined();
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it('is true for a connection the server terminated, and for a client that was ended', async () => {
    const c = client(testAdminUrl());
    const [{ pid }] = (await c`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
    const sleeping = failure(c`select pg_sleep(30)`);
    // Terminated by another session while it runs (the server's 57P01, which postgres.js reports as a closed
    // connection).
    const other = client(testAdminUrl());
    await expect
      .poll(async () => (await other`select state from pg_stat_activity where pid = ${pid}`)[0]?.state)
      .toBe('active');
    await other`select pg_terminate_backend(${pid})`;
    expect(isDatabaseUnavailable(await sleeping)).toBe(true);
    const ended = client(testAdminUrl());
    await ended`select 1`;
    await ended.end();
    expect(isDatabaseUnavailable(await failure(ended`select 1`))).toBe(true);
  });

  it('is true for a server refusing more connections (53300)', async () => {
    const admin = client(testAdminUrl());
    const role = `rl_limited_${process.pid}`;
    await admin.unsafe(`create role ${role} login connection limit 0`);
    try {
      const url = new URL(testAdminUrl());
      url.username = role;
      const refused = await failure(client(url.toString())`select 1`);
      expect((refused as { code?: string }).code).toBe('53300');
      expect(isDatabaseUnavailable(refused)).toBe(true);
    } finally {
      await admin.unsafe(`drop role ${role}`);
    }
  });

  it('is false for an error of the statement itself, and for anything else', async () => {
    const c = client(testAdminUrl());
    const syntax = await failure(c`select * from no_such_table_here`);
    expect((syntax as { code?: string }).code).toBe('42P01');
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
