import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, testGateway } from './support.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../../node_modules/.bin/', import.meta.url));

/** One finding of a linter, as the assertion shows it. */
interface Finding {
  rule: string;
  severity: string;
  message: string;
  where: string;
}

/** Runs a linter that may exit non-zero when it finds something; answers its standard output. */
async function output(cmd: string, args: string[], cwd: string): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    return (await run(join(BIN, cmd), args, { cwd, env, maxBuffer: 64 << 20 })).stdout;
  } catch (err) {
    const { stdout } = err as { stdout?: string };
    if (stdout !== undefined && (err as { code?: unknown }).code !== 'ENOENT') return stdout;
    throw err;
  }
}

async function redocly(file: string, cwd: string): Promise<Finding[]> {
  const out = await output('redocly', ['lint', '--extends=recommended', '--format=json', file], cwd);
  const report = JSON.parse(out.slice(out.indexOf('{'))) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
  };
  return report.problems.map((p) => ({
    rule: p.ruleId,
    severity: p.severity,
    message: p.message,
    where: p.location[0]?.pointer ?? '',
  }));
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'];

async function spectral(file: string, cwd: string): Promise<Finding[]> {
  await writeFile(join(cwd, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  const report = join(cwd, 'spectral.json');
  await output('spectral', ['lint', '--ruleset', '.spectral.yaml', '--format', 'json', '--output', report, file], cwd);
  const results = JSON.parse(await readFile(report, 'utf8')) as {
    code: string;
    severity: number;
    message: string;
    path: string[];
  }[];
  return results.map((r) => ({
    rule: r.code,
    severity: SPECTRAL_SEVERITY[r.severity] ?? String(r.severity),
    message: r.message,
    where: r.path.join('.'),
  }));
}

// The OpenAPI document as the gateway serves it, under the two linters integrators run: Redocly's recommended
// rules and Spectral's `oas` ruleset. Nothing found at any severity: a new warning fails here, not in someone's CI.
describe('the OpenAPI document under @redocly/cli and @stoplight/spectral-cli', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    const bus = await startTestBus();
    const app = await testGateway(bus);
    try {
      const res = await app.inject({ url: '/api/openapi.json' });
      expect(res.statusCode).toBe(200);
      dir = await mkdtemp(join(tmpdir(), 'rootline-openapi-lint-'));
      file = join(dir, 'openapi.json');
      await writeFile(file, res.body);
    } finally {
      await app.close();
      await bus.close();
    }
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has no error and no warning under either (both run side by side)', async () => {
    const [fromRedocly, fromSpectral] = await Promise.all([redocly(file, dir), spectral(file, dir)]);
    expect(fromRedocly).toEqual([]);
    expect(fromSpectral).toEqual([]);
  }, 300_000);
});
