import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

const PASSWORD = 'correct horse battery staple';
let bus: TestBus;

beforeAll(async () => {
  bus = await startTestBus();
});
afterAll(async () => {
  await bus?.close();
});

async function withGateway<T>(env: Record<string, string>, fn: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const app = await testGateway(bus, env);
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

const storedHash = async (email: string): Promise<string> => {
  const rows = (await bus.database.db.execute(
    sql`select password_hash from identity.users where email = ${email}`,
  )) as unknown as { password_hash: string }[];
  return rows[0]!.password_hash;
};

const register = (app: FastifyInstance, email: string) =>
  app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: PASSWORD, name: 'P' } });
const signIn = (app: FastifyInstance, email: string, password = PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });

describe('password hashing', () => {
  it('uses bcrypt with cost 12 by default, as the spec says', async () => {
    // Without BCRYPT_COST: the one place the suite pays for the real cost.
    await withGateway({ BCRYPT_COST: '' }, async (app) => {
      expect((await register(app, 'default@example.org')).statusCode).toBe(201);
    });
    expect(await storedHash('default@example.org')).toMatch(/^\$2b\$12\$.{53}$/);
  });

  it('uses argon2id when configured, and both kinds verify', async () => {
    await withGateway({ PASSWORD_HASH: 'argon2id', ARGON2_MEMORY_KIB: '2048', ARGON2_TIME_COST: '1' }, async (app) => {
      expect((await register(app, 'argon@example.org')).statusCode).toBe(201);
      expect(await storedHash('argon@example.org')).toMatch(/^\$argon2id\$v=19\$m=2048,t=1,p=1\$/);
      expect((await signIn(app, 'argon@example.org')).statusCode).toBe(200);
      // The bcrypt hash made under the default setting verifies too.
      expect((await signIn(app, 'default@example.org')).statusCode).toBe(200);
    });
  });

  it('upgrades a hash at sign-in when the configured scheme or cost has changed', async () => {
    await withGateway({ BCRYPT_COST: '4' }, async (app) => {
      await register(app, 'upgrade@example.org');
    });
    expect(await storedHash('upgrade@example.org')).toMatch(/^\$2b\$04\$/);

    await withGateway({ BCRYPT_COST: '5' }, async (app) => {
      expect((await signIn(app, 'upgrade@example.org')).statusCode).toBe(200);
    });
    expect(await storedHash('upgrade@example.org')).toMatch(/^\$2b\$05\$/);

    await withGateway({ PASSWORD_HASH: 'argon2id', ARGON2_MEMORY_KIB: '2048', ARGON2_TIME_COST: '1' }, async (app) => {
      expect((await signIn(app, 'upgrade@example.org', 'a wrong password here')).statusCode).toBe(401);
      // A failed sign-in changes nothing.
      expect(await storedHash('upgrade@example.org')).toMatch(/^\$2b\$05\$/);
      expect((await signIn(app, 'upgrade@example.org')).statusCode).toBe(200);
    });
    expect(await storedHash('upgrade@example.org')).toMatch(/^\$argon2id\$/);

    await withGateway({ BCRYPT_COST: '4' }, async (app) => {
      expect((await signIn(app, 'upgrade@example.org')).statusCode).toBe(200);
    });
    expect(await storedHash('upgrade@example.org')).toMatch(/^\$2b\$04\$/);
  });
});

describe('first ADMIN from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  const ADMIN = { ADMIN_EMAIL: 'Root@Example.org', ADMIN_PASSWORD: 'the first admin passphrase', ADMIN_NAME: 'Root' };

  it('creates the account at start-up, with the ADMIN role and a confirmed address', async () => {
    await withGateway(ADMIN, async (app) => {
      await app.ready();
      const res = await signIn(app, 'root@example.org', ADMIN.ADMIN_PASSWORD);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user).toMatchObject({ email: 'root@example.org', role: 'ADMIN', emailVerified: true });
    });
  });

  it('leaves an existing account alone: no password change, no promotion', async () => {
    await withGateway({ ...ADMIN, ADMIN_PASSWORD: 'a different passphrase now' }, async (app) => {
      await app.ready();
      expect((await signIn(app, 'root@example.org', 'a different passphrase now')).statusCode).toBe(401);
      expect((await signIn(app, 'root@example.org', ADMIN.ADMIN_PASSWORD)).statusCode).toBe(200);
    });
    await withGateway({}, async (app) => {
      await register(app, 'squatter@example.org');
    });
    await withGateway({ ADMIN_EMAIL: 'squatter@example.org', ADMIN_PASSWORD: ADMIN.ADMIN_PASSWORD }, async (app) => {
      await app.ready();
      const res = await signIn(app, 'squatter@example.org');
      expect(res.json().data.user.role).toBe('USER');
    });
  });

  it('stops start-up with a message naming ADMIN_PASSWORD when it breaks the policy, or is set alone', async () => {
    const weak = await testGateway(bus, { ADMIN_EMAIL: 'weak@example.org', ADMIN_PASSWORD: 'short' });
    await expect(weak.ready()).rejects.toThrow('ADMIN_PASSWORD must be at least 10 characters long');
    await weak.close().catch(() => {});
    await expect(testGateway(bus, { ADMIN_EMAIL: 'alone@example.org' })).rejects.toThrow(
      'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
  });
});
