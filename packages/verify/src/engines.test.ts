import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minVersion, satisfies } from 'semver';
import { describe, expect, it } from 'vitest';

// The published packages (rootline-verify for auditors, @rootline/sdk for clients) promise the Node versions of their
// `engines`; every package they install must accept the oldest of them, or npm warns EBADENGINE (and refuses with
// --engine-strict). Walks the installed production dependencies as pnpm laid them out.

const PACKAGES = fileURLToPath(new URL('../..', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** The folder of `name` as Node would find it from `dir`: the nearest node_modules above it. */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    try {
      // pnpm links each package into the store, where its own dependencies are its siblings.
      return realpathSync(join(candidate, 'package.json')).slice(0, -'/package.json'.length);
    } catch {
      if (dirname(dir) === dir) throw new Error(`${name} is not installed above ${from}`);
    }
  }
}

/** Every production dependency of the package in `dir`, transitively: name@version → its engines.node. */
function dependencyEngines(dir: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  const walk = (from: string) => {
    for (const name of Object.keys(manifest(from).dependencies ?? {})) {
      const found = packageDir(name, from);
      const m = manifest(found);
      const key = `${m.name}@${m.version}`;
      if (out.has(key)) continue;
      out.set(key, m.engines?.node);
      walk(found);
    }
  };
  walk(dir);
  return out;
}

describe.each(['verify', 'sdk'])('the dependencies of packages/%s', (pkg) => {
  it('all accept the oldest Node the package supports', () => {
    const dir = join(PACKAGES, pkg);
    const own = manifest(dir).engines?.node;
    expect(own).toBeDefined();
    const oldest = minVersion(own as string)?.version as string;
    expect(oldest).toBe('20.10.0');
    const deps = dependencyEngines(dir);
    expect(deps.size).toBeGreaterThan(0);
    const refusing = [...deps].filter(([, range]) => range !== undefined && !satisfies(oldest, range));
    expect(refusing, `dependencies whose engines refuse Node ${oldest}`).toEqual([]);
  });
});

it('the check catches a dependency that declares a newer Node than the package', () => {
  // canonicalize 5 declares node >=22, which is why both packages pin 4.0.0 (ADR 197).
  expect(satisfies('20.10.0', '>=22')).toBe(false);
  expect(satisfies('20.10.0', '>=18')).toBe(true);
});
