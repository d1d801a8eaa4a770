import { type DependencyTree, parseCircular, parseDependencyTree } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/data-dir.js';

/** The repository's TypeScript (and plain JavaScript) sources, tests beside them included. */
const SOURCES = [
  'packages/*/src/**/*.{ts,tsx,mts,mjs}',
  'services/*/src/**/*.{ts,tsx,mts,mjs}',
  'scripts/src/**/*.{ts,mts,mjs}',
  'apps/web/src/**/*.{ts,tsx}',
];

/** Pure code: the services' domain rules and the package of helpers they share (docs/services.md). */
const PURE = /^(services\/[^/]+\/src\/domain|packages\/domain\/src)\//;

/** Pure modules that read what every contract module declares (the event catalogue), so they load them all. */
const WHOLE_CONTRACTS = [
  'services/transparency/src/domain/event-catalogue.ts',
  'services/transparency/src/domain/event-catalogue.test.ts',
];

/** Modules that perform I/O or start the runtime: pure code imports none of them, not even through another file. */
const RUNTIME_MODULES = [
  '@rootline/host',
  '@rootline/bus',
  '@rootline/db',
  '@rootline/storage',
  'drizzle-orm',
  'nats',
  'postgres',
  'fastify',
  'pino',
  'node:fs',
  'node:net',
  'node:http',
  'node:https',
  'node:child_process',
  'node:worker_threads',
];

/** The runtime module a request names, if any: `drizzle-orm/pg-core`, `fs/promises`, `@fastify/cors` count. */
function runtimeModule(request: string): string | undefined {
  const bare = request.startsWith('node:') ? request : `node:${request}`;
  return RUNTIME_MODULES.find((m) => {
    if (m === 'fastify' && /^(fastify|@fastify\/)/.test(request)) return true;
    return [request, bare].some((r) => r === m || r.startsWith(`${m}/`));
  });
}

let tree: DependencyTree;

beforeAll(async () => {
  tree = await parseDependencyTree(SOURCES, {
    context: REPO_ROOT,
    cwd: REPO_ROOT,
    tsconfig: `${REPO_ROOT}/tsconfig.json`,
  });
}, 300_000);

describe('the architecture of the sources', () => {
  it('reads every source file', () => {
    const files = Object.keys(tree).filter((f) => !f.includes('node_modules'));
    expect(files.length).toBeGreaterThan(500);
    expect(files.some((f) => PURE.test(f))).toBe(true);
  });

  it('keeps the domain code pure: no runtime module is imported by it, directly or through another file', () => {
    const found: string[] = [];
    for (const file of Object.keys(tree).filter((f) => PURE.test(f))) {
      // Breadth-first over the repository's files it reaches, remembering the way there.
      const via = new Map<string, string[]>([[file, [file]]]);
      const queue = [file];
      while (queue.length > 0) {
        const current = queue.shift()!;
        for (const dep of tree[current] ?? []) {
          const runtime = runtimeModule(dep.request);
          if (runtime) {
            found.push(`${[...via.get(current)!, dep.request].join(' -> ')}`);
            continue;
          }
          if (dep.id && !dep.id.includes('node_modules') && !via.has(dep.id)) {
            via.set(dep.id, [...via.get(current)!, dep.id]);
            queue.push(dep.id);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('has domain code import the contracts module by module, so a domain test does not load every schema', () => {
    const whole = Object.keys(tree)
      .filter((f) => PURE.test(f) && !WHOLE_CONTRACTS.includes(f))
      .filter((f) => (tree[f] ?? []).some((dep) => dep.request === '@rootline/contracts'));
    expect(whole).toEqual([]);
  });

  it('has no import circle, type-only imports included', () => {
    const circles = parseCircular(tree).map((c) => c.join(' -> '));
    expect(circles).toEqual([]);
  });
});
