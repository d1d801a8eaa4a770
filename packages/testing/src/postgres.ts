import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** Server used for throwaway test databases (an admin connection to an existing database). */
export function testAdminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface TestDatabase {
  url: string;
  name: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * Creates a fresh, empty PostgreSQL database so a test file owns its schemas; on the server of TEST_DATABASE_URL
 * unless `adminUrl` names another (e.g. a private server from `startPostgresServer`).
 */
export async function createTestDatabase(prefix = 'rl_test', adminUrl = testAdminUrl()): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}
