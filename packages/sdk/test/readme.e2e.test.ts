import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TEST_JWT_SECRET } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedHandle, startEmbedded } from '../../../scripts/src/embedded-host.js';

// The README's SDK script, as written, against Rootline in embedded mode (what `pnpm start` runs).

const SDK = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE = 'examples/quickstart.ts';
const run = promisify(execFile);

let dataDir: string;
let rootline: EmbeddedHandle;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'rootline-sdk-readme-'));
  rootline = await startEmbedded({
    env: { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn' },
  });
});
afterAll(async () => {
  await rootline?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('README: Use the SDK', () => {
  it('shows the example script as it is in the package', async () => {
    const readme = await readFile(join(SDK, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use the SDK'));
    const block = section.slice(
      section.indexOf('```ts\n') + 6,
      section.indexOf('```\n', section.indexOf('```ts\n') + 6),
    );
    expect(block).toBe(await readFile(join(SDK, EXAMPLE), 'utf8'));
  });

  it('registers an account, signs in, registers a plant and reads it; again on a second run', async () => {
    const env = { ...process.env, ROOTLINE_URL: rootline.url };
    const tsx = join(SDK, 'node_modules/.bin/tsx');
    for (let i = 0; i < 2; i++) {
      const { stdout } = await run(tsx, ['--conditions=development', EXAMPLE], { cwd: SDK, env, timeout: 120_000 });
      expect(stdout).toMatch(/^plt_\S+ Tomato \d{4}-\d\d-\d\dT/);
    }
    // Two cold starts of tsx: on a busy machine each takes a while.
  }, 240_000);
});
