import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/data-dir.js';
import { NODE_FLAGS, SEMI_SPACE_MIB, SMALL_SERVICE_FLAGS, serviceNodeFlags } from '../src/node-flags.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

/** Every workspace package.json (the root, packages/*, services/*, scripts). */
function packageFiles(): string[] {
  const under = (dir: string) => readdirSync(join(REPO_ROOT, dir)).map((name) => `${dir}/${name}/package.json`);
  return ['package.json', 'scripts/package.json', ...under('packages'), ...under('services')];
}

describe("an open project's files", () => {
  it('carries the Apache License 2.0, named in every package.json', () => {
    expect(read('LICENSE')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    for (const file of packageFiles()) expect(JSON.parse(read(file)).license, file).toBe('Apache-2.0');
  });

  it('has a changelog in the Keep a Changelog form, a contributing guide and a security policy', () => {
    const changelog = read('CHANGELOG.md');
    expect(changelog).toContain('[Keep a Changelog](https://keepachangelog.com/');
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(changelog).toMatch(/^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/m);
    expect(read('CONTRIBUTING.md')).toContain('pnpm docs:config');
    expect(read('SECURITY.md')).toMatch(/## Reporting a vulnerability/);
  });

  it('starts the runners with the same V8 flags in pnpm start and pnpm start:cluster, and services as the image does', () => {
    const root = JSON.parse(read('package.json')).scripts;
    const scripts = JSON.parse(read('scripts/package.json')).scripts;
    const flags = NODE_FLAGS.join(' ');
    expect(root.start).toBe(`exec node ${flags} scripts/launch/start.mjs embedded`);
    expect(root['start:cluster']).toBe(`exec node ${flags} scripts/launch/start.mjs cluster`);
    expect(scripts.start).toBe(`node ${flags} dist/embedded.js`);
    expect(scripts['start:cluster']).toBe(`node ${flags} dist/cluster.js`);
    // The image runs one service per container: the flags of a service process in cluster mode.
    const serviceFlags = [...NODE_FLAGS, ...SMALL_SERVICE_FLAGS].join(' ');
    expect(read('infra/docker/Dockerfile')).toContain(`NODE_OPTIONS="${serviceFlags}"`);
  });

  it('gives the read-path processes their own young generation in the cluster runner and the Kubernetes manifests', () => {
    for (const [service, mib] of Object.entries(SEMI_SPACE_MIB)) {
      expect(serviceNodeFlags(service)).toEqual([`--max-semi-space-size=${mib}`]);
      const manifest = read(`infra/k8s/base/${service}.yaml`);
      expect(manifest).toMatch(new RegExp(`- name: NODE_OPTIONS\\n\\s+value: "--max-semi-space-size=${mib}"`));
    }
    expect(serviceNodeFlags('notify')).toEqual([...NODE_FLAGS, '--v8-pool-size=1']);
  });
});
