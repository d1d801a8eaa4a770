import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestInfra, TEST_JWT_SECRET, type TestInfra } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/data-dir.js';

const run = promisify(execFile);

/** Runs one service as cluster mode does (its own process) and answers how it ended and what it printed. */
async function startAlone(name: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ['--conditions=development', '--import', 'tsx', 'src/index.ts'], {
      cwd: join(REPO_ROOT, 'services', name),
      env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
      timeout: 60_000,
    });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

// In cluster mode the settings that keep links honest and sent links working are required, named when missing.
describe('settings required in cluster mode', () => {
  let infra: TestInfra;
  beforeAll(async () => {
    infra = await startTestInfra();
  });
  afterAll(async () => {
    await infra?.stop();
  });

  it('the gateway refuses to start without PUBLIC_URL, naming it', async () => {
    const ended = await startAlone('gateway', {
      DATABASE_URL: infra.pg.url,
      NATS_URL: infra.nats.url,
      JWT_SECRET: TEST_JWT_SECRET,
    });
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(
      /^gateway could not start: PUBLIC_URL: required when the gateway runs as its own process/,
    );
  }, 60_000);

  it('notify refuses to start without PUBLIC_URL and the key of unsubscribe links, naming both', async () => {
    const ended = await startAlone('notify', { DATABASE_URL: infra.pg.url, NATS_URL: infra.nats.url });
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain('notify could not start: Invalid configuration:');
    expect(ended.stderr).toContain('PUBLIC_URL: required in cluster mode');
    expect(ended.stderr).toContain('UNSUBSCRIBE_SECRET (or JWT_SECRET): required in cluster mode');
  }, 60_000);
});
