import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUNNER = fileURLToPath(new URL('./fixtures/stuck/run.ts', import.meta.url));

describe('onShutdown', () => {
  it('exits with code 1 and says why when the closing sequence outlives its deadline', async () => {
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', RUNNER], {
      env: { ...process.env, DEADLINE_MS: '300' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const signalled = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    expect(code).toBe(1);
    expect(stderr).toContain('shutdown did not finish within 300 ms; exiting');
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(250);
  }, 30_000);
});
