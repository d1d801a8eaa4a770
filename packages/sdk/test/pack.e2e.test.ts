import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TEST_JWT_SECRET } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedHandle, startEmbedded } from '../../../scripts/src/embedded-host.js';

// The package as a user gets it: packed with `pnpm pack` (which applies `publishConfig`), installed with npm into a
// folder outside the workspace, and the README's quickstart run with plain node against Rootline in embedded mode.

const SDK = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(SDK, '..', '..');
const run = promisify(execFile);

/** The README's quickstart: its first js block. */
const quickstart = (readme: string) => {
  const start = readme.indexOf('```js\n', readme.indexOf('## Quickstart')) + 6;
  return readme.slice(start, readme.indexOf('```\n', start));
};

let work: string;
let tarball: string;
let rootline: EmbeddedHandle;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rootline-sdk-pack-'));
  const dataDir = join(work, 'data');
  [rootline] = await Promise.all([
    startEmbedded({
      env: { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn' },
    }),
    (async () => {
      // The compiled package is what is packed: bring dist/ up to date with the sources first.
      await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b', 'packages/sdk/tsconfig.build.json'], { cwd: ROOT });
      await run('pnpm', ['pack', '--pack-destination', work], { cwd: SDK });
      const name = (await readdir(work)).find((f) => f.endsWith('.tgz'));
      if (!name) throw new Error(`pnpm pack wrote no tarball into ${work}`);
      tarball = join(work, name);
    })(),
  ]);
}, 120_000);
afterAll(async () => {
  await rootline?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the published @rootline/sdk', () => {
  it('holds only what a user needs, and a package.json that resolves outside the workspace', async () => {
    const { stdout } = await run('tar', ['tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toContain('package/README.md');
    expect(files).toContain('package/LICENSE');
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    const stray = files.filter(
      (f) => !/^package\/(README\.md|LICENSE|package\.json|dist\/[\w/.-]+\.(js|d\.ts))$/.test(f) || /\.test\./.test(f),
    );
    expect(stray, 'tests, sources, source maps or build info in the package').toEqual([]);

    const manifest = JSON.parse((await run('tar', ['xzf', tarball, '-O', 'package/package.json'])).stdout);
    expect(manifest.private).toBeUndefined();
    expect(manifest.exports).toEqual({ '.': { types: './dist/index.d.ts', default: './dist/index.js' } });
    expect(JSON.stringify(manifest)).not.toContain('src/');
    expect(manifest.engines.node).toBe('>=20.10');
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['canonicalize', 'eventsource-parser', 'openapi-fetch']);
  });

  it('installs with npm on this Node without an engine warning, and runs the README quickstart', async () => {
    const app = join(work, 'app');
    await run('mkdir', ['-p', app]);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'quickstart', private: true, type: 'module' }));
    // engine-strict: a dependency that refuses this Node version fails the install instead of warning.
    const install = await run(
      'npm',
      ['install', tarball, '--engine-strict', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'],
      { cwd: app, timeout: 90_000 },
    );
    expect(install.stderr).not.toMatch(/EBADENGINE|ERR!/);

    const readme = await readFile(join(SDK, 'README.md'), 'utf8');
    // The README's script is the package's example, which the repository's own README shows too.
    expect(quickstart(readme)).toBe(await readFile(join(SDK, 'examples', 'quickstart.ts'), 'utf8'));
    await writeFile(join(app, 'quickstart.mjs'), quickstart(readme));
    const env = { ...process.env, ROOTLINE_URL: rootline.url, NODE_OPTIONS: '' };
    const { stdout } = await run(process.execPath, ['quickstart.mjs'], { cwd: app, env, timeout: 60_000 });
    expect(stdout).toMatch(/^plt_\S+ Tomato \d{4}-\d\d-\d\dT/);
  }, 150_000);
});
