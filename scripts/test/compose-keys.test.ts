import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../src/data-dir.js';

/**
 * Keys each service generates into DATA_DIR when they are not configured, with the settings that configure them.
 * A service that writes a file under DATA_DIR and is not listed here fails the scan below: list it, then give it a
 * volume (or required settings) in docker-compose.yml.
 */
const GENERATED_KEYS: Record<string, { file: string; settings: string[] }[]> = {
  transparency: [
    { file: 'transparency-signing-key.pem', settings: ['AUDIT_SIGNING_KEY'] },
    { file: 'transparency-webhook-secret.key', settings: ['WEBHOOK_SECRET_KEY'] },
  ],
  notify: [{ file: 'vapid.json', settings: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] }],
};

interface ComposeService {
  build?: { args?: Record<string, string> };
  environment?: Record<string, string>;
  volumes?: string[];
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const sourcesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourcesOf(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });

/** Services whose code writes a file into DATA_DIR, each with the files that do it. */
function servicesWritingUnderDataDir(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const name of readdirSync(join(REPO_ROOT, 'services'))) {
    for (const file of sourcesOf(join(REPO_ROOT, 'services', name, 'src'))) {
      const text = readFileSync(file, 'utf8');
      if (/DATA_DIR/.test(text) && /\bwriteFile(Sync)?\(/.test(text)) {
        found.set(name, [...(found.get(name) ?? []), relative(REPO_ROOT, file)]);
      }
    }
  }
  return found;
}

/** DATA_DIR of the image, as the Dockerfile sets it. */
function imageDataDir(): string {
  const m = /DATA_DIR=(\S+)/.exec(readFileSync(join(REPO_ROOT, 'infra/docker/Dockerfile'), 'utf8'));
  if (!m) throw new Error('the Dockerfile sets no DATA_DIR');
  return m[1] as string;
}

/** A setting compose refuses to start without (`${NAME:?message}`). */
const required = (value: string | undefined) => /^\$\{[A-Z0-9_]+:\?/.test(value ?? '');

/** Where a compose file would lose a generated key when a container is re-created: one line per gap. */
function keyProblems(compose: Compose, dataDir: string): string[] {
  const problems: string[] = [];
  for (const [service, keys] of Object.entries(GENERATED_KEYS)) {
    const entries = Object.entries(compose.services).filter(([, s]) => s.build?.args?.SERVICE === service);
    if (entries.length === 0) problems.push(`${service}: no container runs it`);
    for (const [name, s] of entries) {
      const dir = s.environment?.DATA_DIR ?? dataDir;
      const volume = (s.volumes ?? []).some((v) => {
        const [source, target] = v.split(':');
        return target === dir && source !== undefined && source in (compose.volumes ?? {});
      });
      if (volume) continue;
      for (const k of keys) {
        const missing = k.settings.filter((setting) => !required(s.environment?.[setting]));
        if (missing.length > 0) {
          problems.push(
            `${name}: ${k.file} is generated into ${dir}, which is no named volume, and ${missing} not required`,
          );
        }
      }
    }
  }
  return problems;
}

const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;

describe('docker-compose.yml keeps every generated key', () => {
  it('lists every service that writes under DATA_DIR, with its key files', () => {
    const writers = servicesWritingUnderDataDir();
    expect([...writers.keys()].sort()).toEqual(Object.keys(GENERATED_KEYS).sort());
    for (const [service, keys] of Object.entries(GENERATED_KEYS)) {
      const code = (writers.get(service) ?? []).map((f) => readFileSync(join(REPO_ROOT, f), 'utf8')).join('\n');
      for (const k of keys) expect(code, `${service} writes ${k.file}`).toContain(`'${k.file}'`);
    }
  });

  it('gives each of them a named volume at DATA_DIR, or requires its keys', () => {
    expect(keyProblems(compose, imageDataDir())).toEqual([]);
  });

  it('would notice a key writer without its volume', () => {
    const notify = compose.services.notify as ComposeService;
    const without = { ...compose, services: { ...compose.services, notify: { ...notify, volumes: [] } } };
    expect(keyProblems(without, imageDataDir())).toEqual([
      'notify: vapid.json is generated into /var/lib/rootline, which is no named volume, and VAPID_PUBLIC_KEY,VAPID_PRIVATE_KEY not required',
    ]);
    // Compose's own syntax for a required variable, not a template.
    const must = (name: string) => ['$', `{${name}:?set ${name}}`].join('');
    const required = {
      ...notify,
      volumes: [],
      environment: { ...notify.environment, VAPID_PUBLIC_KEY: must('V'), VAPID_PRIVATE_KEY: must('W') },
    };
    expect(keyProblems({ ...compose, services: { ...compose.services, notify: required } }, imageDataDir())).toEqual(
      [],
    );
  });

  it('requires PUBLIC_URL of the gateway and notify, and the key of unsubscribe links', () => {
    expect(required(compose.services.gateway?.environment?.PUBLIC_URL)).toBe(true);
    expect(required(compose.services.notify?.environment?.PUBLIC_URL)).toBe(true);
    const notify = compose.services.notify?.environment ?? {};
    expect(required(notify.JWT_SECRET) || required(notify.UNSUBSCRIBE_SECRET)).toBe(true);
  });
});
