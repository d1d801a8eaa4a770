import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { localDataDir, REPO_ROOT } from '../src/data-dir.js';

const run = promisify(execFile);

describe('localDataDir', () => {
  it('defaults to ./data of the directory pnpm was run in', () => {
    expect(localDataDir({ INIT_CWD: '/home/me/rootline' })).toBe('/home/me/rootline/data');
  });

  it('resolves a relative DATA_DIR against that directory and keeps an absolute one', () => {
    expect(localDataDir({ INIT_CWD: '/home/me/rootline', DATA_DIR: 'var/db' })).toBe('/home/me/rootline/var/db');
    expect(localDataDir({ INIT_CWD: '/home/me/rootline', DATA_DIR: '/srv/rootline' })).toBe('/srv/rootline');
  });

  it('falls back to the repository root when not started through pnpm', () => {
    expect(localDataDir({})).toBe(join(REPO_ROOT, 'data'));
    expect(REPO_ROOT).toBe(join(import.meta.dirname, '..', '..'));
  });

  // Regression: pnpm runs the start script inside scripts/, so './data' used to mean scripts/data.
  it('is <repo>/data, not scripts/data, for a script pnpm runs in the scripts package from the root', async () => {
    const code = "const m = await import('./src/data-dir.ts'); process.stdout.write(m.localDataDir());";
    const env = { ...process.env };
    delete env.DATA_DIR;
    delete env.INIT_CWD;
    const { stdout } = await run(
      'pnpm',
      ['--filter', '@rootline/scripts', 'exec', 'node', '--import', 'tsx', '--input-type=module', '-e', code],
      { cwd: REPO_ROOT, env },
    );
    expect(stdout.trim().split('\n').at(-1)).toBe(join(REPO_ROOT, 'data'));
  });
});
