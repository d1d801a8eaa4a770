import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, TEST_JWT_SECRET } from '@rootline/testing';
import postgres from 'postgres';
import { NO_LIMIT } from './http-bench.js';
import { REPO_ROOT } from './paths.js';
import type { BenchContext } from './types.js';

/**
 * The gateway and the environment service, each a process of its own as in cluster mode, and nothing else: the full
 * cluster's ten processes did not start within its minute on the shared machine. Resolves once the gateway is live
 * and the environment service's migrations have run.
 */
export async function startEnvironmentPlatform(
  ctx: BenchContext,
  natsUrl: string,
  databaseUrl: string,
): Promise<string> {
  const port = await freePort();
  const env = {
    ...process.env,
    NATS_URL: natsUrl,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_SESSION_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_PER_HOUR_PER_USER: NO_LIMIT,
  };
  const start = (name: string, extra: NodeJS.ProcessEnv = {}) => {
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'src/index.ts'], {
      cwd: join(REPO_ROOT, 'services', name),
      env: { ...env, ...extra },
      stdio: ctx.settings.verbose ? 'inherit' : 'ignore',
    });
    ctx.scope.defer(
      () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    );
  };
  start('environment');
  start('gateway', { PORT: String(port), JWT_SECRET: TEST_JWT_SECRET, PUBLIC_URL: `http://127.0.0.1:${port}` });
  const url = `http://127.0.0.1:${port}`;
  // The gateway's readiness waits for every service, and only one runs here: wait for the gateway to be live and
  // for the environment service's migrations.
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await until(async () => {
      const live = await fetch(`${url}/api/health/live`).catch(() => undefined);
      const [table] = await sql`select to_regclass('environment.plant_environments') as t`;
      return live?.ok === true && table?.t !== null;
    }, 'the gateway and the environment service');
  } finally {
    await sql.end();
  }
  return url;
}

/** Polls `ready` every 250 ms for at most three minutes (start-up is slow when the shared machine is busy). */
export async function until(ready: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not start within 180 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
