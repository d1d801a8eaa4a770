import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_BUNDLE, ROOT, runSteps, type Step, steps } from '../launch/build.mjs';

const exec = promisify(execFile);

/** Collects what runSteps prints. */
function sink() {
  let text = '';
  return { out: { write: (t: string) => (text += t) }, text: () => text };
}

describe('build steps skip when their inputs did not change', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('runs a step once, skips it while its inputs and outputs stay, and runs it again when either changes', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rootline-build-'));
    dirs.push(root);
    const cacheDir = join(root, 'cache');
    await mkdir(join(root, 'src', 'nested'), { recursive: true });
    await writeFile(join(root, 'src', 'a.ts'), 'a');
    await writeFile(join(root, 'src', 'nested', 'b.ts'), 'b');
    await writeFile(join(root, 'other.txt'), 'o');
    const ran: string[] = [];
    const list: Step[] = [
      {
        id: 'one',
        label: 'Step one',
        inputs: ['src'],
        outputs: ['out-one'],
        run: async () => {
          ran.push('one');
          await writeFile(join(root, 'out-one'), 'built');
        },
      },
      {
        id: 'two',
        label: 'Step two',
        inputs: ['other.txt', 'missing-folder'],
        run: async () => {
          ran.push('two');
        },
      },
    ];
    const go = async (force = false) => {
      ran.length = 0;
      const s = sink();
      await runSteps(list, { root, cacheDir, out: s.out, force });
      return { ran: [...ran], text: s.text() };
    };

    const first = await go();
    expect(first.ran).toEqual(['one', 'two']);
    expect(first.text).toMatch(/^\[1\/2\] Step one… \d+\.\d s\n\[2\/2\] Step two… \d+\.\d s\n$/);

    const second = await go();
    expect(second.ran).toEqual([]);
    expect(second.text).toBe('[1/2] Step one… unchanged, skipped\n[2/2] Step two… unchanged, skipped\n');

    // A file's content, a new file, a missing output: each runs the step it belongs to, and only that one.
    await writeFile(join(root, 'src', 'nested', 'b.ts'), 'b2');
    expect((await go()).ran).toEqual(['one']);
    await writeFile(join(root, 'other.txt'), 'o2');
    expect((await go()).ran).toEqual(['two']);
    await writeFile(join(root, 'src', 'c.ts'), 'c');
    expect((await go()).ran).toEqual(['one']);
    await rm(join(root, 'out-one'));
    expect((await go()).ran).toEqual(['one']);
    expect((await go()).ran).toEqual([]);
    expect((await go(true)).ran).toEqual(['one', 'two']);
  });

  it('does not record a step that failed: the next build runs it again', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rootline-build-'));
    dirs.push(root);
    const cacheDir = join(root, 'cache');
    await writeFile(join(root, 'input'), 'x');
    let fail = true;
    let runs = 0;
    const list: Step[] = [
      {
        id: 'flaky',
        label: 'Flaky',
        inputs: ['input'],
        run: async () => {
          runs++;
          if (fail) throw new Error('tool failed');
        },
      },
    ];
    const s = sink();
    await expect(runSteps(list, { root, cacheDir, out: s.out })).rejects.toThrow('tool failed');
    expect(s.text()).toBe('[1/1] Flaky… failed\n');
    fail = false;
    await runSteps(list, { root, cacheDir, out: sink().out });
    await runSteps(list, { root, cacheDir, out: sink().out });
    expect(runs).toBe(2);
  });

  // Regression guard: a file a step reads outside the source folders must be among its inputs, or an edit to it
  // is skipped. The document the SDK is generated from shows the response examples the walk recorded.
  it("lists the gateway's recorded response examples among the SDK step's inputs", () => {
    const sdk = steps().find((s) => s.id === 'sdk');
    expect(sdk?.inputs).toContain('services/gateway/openapi');
    expect(sdk?.inputs).toContain('services/gateway/src');
    expect(sdk?.inputs).toContain('packages/contracts/src');
  });

  // The bundle is made from the compiled code: whatever rebuilds that must rebuild it, or `pnpm start` runs old code.
  it('bundles again when a source of the compiled code or the bundler changes', () => {
    const list = steps();
    const typescript = list.find((s) => s.id === 'typescript');
    const bundle = list.find((s) => s.id === 'bundle');
    expect(list.map((s) => s.id).slice(-3)).toEqual(['typescript', 'bundle', 'web']);
    for (const input of typescript?.inputs ?? []) expect(bundle?.inputs).toContain(input);
    expect(bundle?.inputs).toContain('scripts/launch/bundle.mjs');
    expect(bundle?.outputs).toEqual([EMBEDDED_BUNDLE.output]);
  });

  // The real build, twice: the second run is what a warm `pnpm start` does before it starts the server.
  it('pnpm build a second time on an unchanged checkout skips every step', async () => {
    await exec(process.execPath, ['scripts/launch/build.mjs'], { cwd: ROOT, maxBuffer: 1 << 24 });
    const { stdout } = await exec(process.execPath, ['scripts/launch/build.mjs'], { cwd: ROOT });
    expect(stdout).toBe(
      [
        '[1/4] Generating the SDK from the API routes… unchanged, skipped',
        '[2/4] Building packages and services (TypeScript)… unchanged, skipped',
        '[3/4] Bundling the embedded server… unchanged, skipped',
        '[4/4] Building the web app… unchanged, skipped',
        '',
      ].join('\n'),
    );
    // The recorded digests are plain files under node_modules/.cache, never committed.
    const recorded = await readFile(
      join(ROOT, 'node_modules', '.cache', 'rootline-build', 'typescript.sha256'),
      'utf8',
    );
    expect(recorded).toMatch(/^[0-9a-f]{64}$/);
  }, 600_000);
});
