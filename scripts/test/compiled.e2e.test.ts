import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SERVICE_NAMES } from '@rootline/contracts';
import {
  api,
  createTestDatabase,
  freePort,
  plantInput,
  signInOverHttp,
  startNatsServer,
  TEST_ADMIN,
  TEST_ADMIN_ENV,
  TEST_JWT_SECRET,
} from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitReady } from '../src/cluster-host.js';
import { REPO_ROOT } from '../src/data-dir.js';
import { serviceNodeFlags } from '../src/node-flags.js';

const SCRIPTS = join(REPO_ROOT, 'scripts');
const run = promisify(execFile);

/** The command lines of a process's children, from /proc. */
function childCommands(pid: number): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      out.push(readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' '));
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}

function stop(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// What `pnpm start` and `pnpm start:cluster` run: the compiled JavaScript under plain node, no tsx; embedded from
// its bundle (ADR 241), where every module must still find the files beside it.
describe('the compiled runtime', () => {
  beforeAll(async () => {
    await run('pnpm', ['build'], { cwd: REPO_ROOT });
  }, 180_000);

  describe('embedded: node dist/bundle/embedded.js', () => {
    let dataDir: string;
    let child: ChildProcess | undefined;
    afterAll(async () => {
      await stop(child);
      await rm(dataDir, { recursive: true, force: true });
    });

    it('starts, migrates, mines (worker and search from dist), serves the docs and the app, and loads on first use', async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'rootline-compiled-'));
      const port = await freePort();
      const env = { ...process.env, ...TEST_ADMIN_ENV, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
      child = spawn(process.execPath, ['dist/bundle/embedded.js'], {
        cwd: SCRIPTS,
        env: { ...env, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
        stdio: 'ignore',
      });
      const url = `http://127.0.0.1:${port}`;
      await waitReady(url, 90_000);
      const token = await signInOverHttp(url, TEST_ADMIN.email, TEST_ADMIN.password);
      const res = await api(url, '/api/plants/register', { token, body: plantInput({ commonName: 'Chives' }) });
      expect(res.status).toBe(201);
      expect(res.body.data.blockHash).toMatch(/^0000/);
      const got = await api(url, `/api/plants/${res.body.data.id}`, { token });
      expect(got.body.data).toMatchObject({ commonName: 'Chives' });
      // Files found from a module's own location: Swagger UI's assets, the web app's build, the recorded examples.
      const docs = await fetch(`${url}/api/docs/static/swagger-ui-bundle.js`);
      expect(docs.status).toBe(200);
      expect((await docs.text()).length).toBeGreaterThan(100_000);
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const openapi = await api(url, '/api/openapi.json');
      expect(openapi.status).toBe(200);
      // A package left out of the bundle, imported on first use: the QR code of a plant (qrcode).
      const qr = await fetch(`${url}/api/transport/qr/${res.body.data.id}?format=png`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(qr.status).toBe(200);
      expect(qr.headers.get('content-type')).toBe('image/png');
    }, 120_000);
  });

  describe('cluster: node dist/cluster.js', () => {
    let child: ChildProcess | undefined;
    const cleanup: (() => Promise<void>)[] = [];
    afterAll(async () => {
      await stop(child);
      for (const c of cleanup.reverse()) await c();
    });

    it('runs every service as node dist/index.js, and the cluster answers', async () => {
      const [nats, db] = await Promise.all([startNatsServer(), createTestDatabase()]);
      cleanup.push(
        () => nats.stop(),
        () => db.drop(),
      );
      const port = await freePort();
      child = spawn(process.execPath, ['dist/cluster.js'], {
        cwd: SCRIPTS,
        env: {
          ...process.env,
          ...TEST_ADMIN_ENV,
          NATS_URL: nats.url,
          DATABASE_URL: db.url,
          PORT: String(port),
          JWT_SECRET: TEST_JWT_SECRET,
          LOG_LEVEL: 'warn',
          CHAIN_DIFFICULTY: '10',
        },
        stdio: 'ignore',
      });
      const url = `http://127.0.0.1:${port}`;
      await waitReady(url, 90_000);
      const commands = childCommands(child.pid!);
      expect(commands).toHaveLength(10);
      expect(commands.sort()).toEqual(
        [...SERVICE_NAMES, 'gateway']
          .map((name) => [process.execPath, ...serviceNodeFlags(name), 'dist/index.js'].join(' '))
          .sort(),
      );
      const token = await signInOverHttp(url, TEST_ADMIN.email, TEST_ADMIN.password);
      const res = await api(url, '/api/plants/register', { token, body: plantInput({ commonName: 'Dill' }) });
      expect(res.status).toBe(201);
    }, 120_000);
  });
});
