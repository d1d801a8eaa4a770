import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, TEST_JWT_SECRET } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('./fixtures/embedded-probe.ts', import.meta.url));

/** The embedded host in a child process, with the lines it prints. */
function startProbe(dataDir: string) {
  const proc: ChildProcess = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', PROBE], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const line = async (re: RegExp, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = lines.find((l) => re.test(l));
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no line matching ${re} in ${JSON.stringify(lines)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const kill = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  return { line, kill };
}

describe('embedded mode across kill -9', () => {
  let dataDir: string;
  const probes: Array<ReturnType<typeof startProbe>> = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-restart-'));
  });
  afterAll(async () => {
    await Promise.all(probes.map((p) => p.kill()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers after a restart an event that was published and not acknowledged when the process died', async () => {
    const first = startProbe(dataDir);
    probes.push(first);
    const url = (await first.line(/^ready /)).split(' ')[1]!;
    const email = 'restart@rootline.test';
    const res = await api(url, '/api/auth/register', {
      body: { email, password: 'restart passphrase', name: 'Restart' },
    });
    expect(res.status).toBe(201);
    // Published by the gateway's outbox and delivered, but its handler never finishes: not acknowledged.
    await first.line(new RegExp(`^seen ${email} 1$`));
    await first.kill();

    const second = startProbe(dataDir);
    probes.push(second);
    await second.line(/^ready /);
    await second.line(new RegExp(`^seen ${email} 1$`));
  }, 180_000);
});
