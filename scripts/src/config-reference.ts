import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { GatewayConfig } from '@rootline/gateway';
import { BaseConfig, serviceSettings } from '@rootline/host';
import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { REPO_ROOT } from './data-dir.js';
import { SERVICES } from './services.js';

/** The files the reference is written to, relative to the repository root. */
export const CONFIG_DOC = 'docs/configuration.md';
export const ENV_EXAMPLE = '.env.example';

/** Settings the local runners and tools read themselves (the services' own are in their schemas). */
export const RunnerSettings = Type.Object({
  CHAIN_MINERS: Type.Integer({
    default: 1,
    minimum: 1,
    description: 'chain-miner processes `pnpm start:cluster` runs',
  }),
  INIT_CWD: Type.Optional(
    Type.String({
      description: 'Set by pnpm: the folder pnpm ran in; the runners resolve a relative DATA_DIR against it',
    }),
  ),
  ROOTLINE_URL: Type.String({
    default: 'http://localhost:3000',
    description: 'The running instance `pnpm demo` fills and the SDK quickstart calls',
  }),
  METRICS_BASE_PORT: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        '`pnpm start:cluster`: each service process serves its metrics on the next port from this one; unset or 0: off',
    }),
  ),
  ROOTLINE_BUILD_FORCE: Type.Optional(
    Type.String({
      description: '`1`: `pnpm build` (and so `pnpm start`) runs every step even when its inputs did not change',
    }),
  ),
  DEMO_PASSWORD: Type.Optional(
    Type.String({
      minLength: 12,
      description: 'Password of the accounts `pnpm demo` registers; unset: a random one, printed at the end',
    }),
  ),
});

/** OpenTelemetry's own variables, read by every process (docs: README, Metrics and traces). */
export const TracingSettings = Type.Object({
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.String({ description: 'OTLP/HTTP collector; set, each request is traced; unset, no tracing SDK is loaded' }),
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(
    Type.String({ description: 'The full traces endpoint, when it is not `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`' }),
  ),
  OTEL_SERVICE_NAME: Type.Optional(
    Type.String({ description: '`service.name` of the spans; default the service name (`rootline` when embedded)' }),
  ),
  OTEL_SDK_DISABLED: Type.Optional(Type.String({ description: '`true`: no tracing even with an endpoint set' })),
});

/** Variables of the container deployment itself: the image's, and those docker-compose.yml fills in. */
export const DeploymentSettings = Type.Object({
  SERVICE: Type.String({
    default: '',
    description: 'Which service the image runs (a folder under services/); compose sets it per container',
  }),
  POSTGRES_PASSWORD: Type.String({
    default: 'rootline',
    description:
      "Password of compose's PostgreSQL (and in every service's DATABASE_URL); set it for anything but local use",
  }),
  MINIO_ROOT_USER: Type.String({
    default: 'rootline',
    description: "Compose's MinIO user, also the uploads' S3 access key",
  }),
  GRAFANA_ADMIN_PASSWORD: Type.String({
    default: 'rootline',
    description: "Password of compose's Grafana `admin` (the `observability` profile)",
  }),
  MINIO_ROOT_PASSWORD: Type.String({
    default: 'rootline-minio',
    description: "Compose's MinIO password, also the uploads' S3 secret key",
  }),
});

/** Settings of the tests (each has a default that fits a developer machine with the services running). */
export const TestSettings = Type.Object({
  TEST_DATABASE_URL: Type.String({
    default: 'postgres://postgres@127.0.0.1:5432/postgres',
    description: 'PostgreSQL server where each test file creates and drops its own database',
  }),
  TEST_REDIS_URL: Type.String({
    default: 'redis://127.0.0.1:6379',
    description: 'Redis of the shared rate-limit tests',
  }),
  NATS_SERVER_BIN: Type.String({
    default: '/usr/sbin/nats-server',
    description: 'nats-server binary the tests start privately (else `nats-server` on the PATH)',
  }),
  TEST_LOG: Type.String({ default: 'silent', description: 'LOG_LEVEL of the services some HTTP tests start' }),
  CLUSTER_OUTPUT: Type.String({
    default: 'ignore',
    description: '`inherit` shows the output of the processes a cluster test starts',
  }),
  CHROMIUM_PATH: Type.String({ default: '/usr/bin/chromium', description: 'Chromium the browser tests drive' }),
  PG_BIN: Type.Optional(
    Type.String({ description: 'Folder of PostgreSQL server binaries (initdb, postgres) for private test servers' }),
  ),
  RECORD_EXAMPLES: Type.Optional(
    Type.String({ description: 'Any value: the example walk writes the answers it gets as the documented examples' }),
  ),
  KUBECTL: Type.String({
    default: 'kubectl',
    description: 'kubectl that renders the Kubernetes overlays in the tests',
  }),
  PROMTOOL: Type.String({ default: 'promtool', description: 'promtool that checks the Prometheus files in the tests' }),
  RL_REPORT_LATENCY: Type.Optional(
    Type.String({ description: 'Any value: the outbox test prints the relay latency it measured' }),
  ),
});

/** Settings of `pnpm bench` (sizes of the data each benchmark makes, and profiling). */
export const BenchSettings = Type.Object({
  BENCH_ANALYTICS_EVENTS: Type.Integer({ default: 5000, description: 'Events the analytics benchmark records' }),
  BENCH_AUDIT_EVENTS: Type.Integer({ default: 5000, description: 'Events the audit-log benchmark appends' }),
  BENCH_EXPORT_EVENTS: Type.Integer({ default: 1_000_000, description: 'Events the export benchmark streams' }),
  BENCH_IMPORT_ROWS: Type.Integer({ default: 100_000, description: 'Seed-lot rows of the import benchmark’s file' }),
  BENCH_IMPORT_PLANTS: Type.Integer({
    default: 10_000,
    description: 'Plant rows the import benchmark records through the ledger',
  }),
  BENCH_FARM_READINGS: Type.Integer({
    default: 1_000_000,
    description: 'Readings the farm analytics benchmark stores',
  }),
  BENCH_LISTINGS: Type.Integer({ default: 100_000, description: 'Listings the marketplace search benchmark makes' }),
  BENCH_NEARBY_PLANTS: Type.Integer({ default: 1_000_000, description: 'Plants the nearby-search benchmark makes' }),
  BENCH_REPLICA_PLANTS: Type.Integer({
    default: 100_000,
    description: 'Plants the read-replica benchmark makes',
  }),
  BENCH_OPEN_RATES: Type.String({
    default: '500,1000,1500,2000,2500,3000,3500,5000',
    description: 'Offered rates (requests/s) of the open-loop registration benchmark',
  }),
  BENCH_SEARCH_PLANTS: Type.Integer({ default: 1_000_000, description: 'Plants the text-search benchmark makes' }),
  BENCH_SIMILAR_PLANTS: Type.Integer({ default: 100_000, description: 'Plants the similarity benchmark makes' }),
  BENCH_WEBHOOK_EVENTS: Type.Integer({ default: 10_000, description: 'Events the webhook fan-out benchmark delivers' }),
  BENCH_WEBHOOK_CONCURRENCY: Type.Optional(
    Type.Integer({ description: 'WEBHOOK_CONCURRENCY of the webhook benchmark; unset: the service default' }),
  ),
  BENCH_WEBHOOK_SENDER_ONLY: Type.Optional(
    Type.String({ description: '`1`: measure the webhook sender alone, without the event pipeline' }),
  ),
  BENCH_PROFILE_DIR: Type.Optional(
    Type.String({ description: 'Set by `--keep-profiles`: where profiled benchmark processes write CPU profiles' }),
  ),
  BENCH_PROFILE_INTERVAL_US: Type.Integer({
    default: 1000,
    description: 'Sampling interval of those CPU profiles, in microseconds',
  }),
});

/** Settings a process refuses to start without in cluster mode (a DATABASE_URL), though optional elsewhere. */
const CLUSTER_REQUIRED: Record<string, Record<string, string>> = {
  gateway: { PUBLIC_URL: 'Required in cluster mode (ADR 132).' },
  notify: {
    PUBLIC_URL: 'Required in cluster mode (ADR 132).',
    UNSUBSCRIBE_SECRET: 'Required in cluster mode unless JWT_SECRET is set.',
    JWT_SECRET: 'Required in cluster mode unless UNSUBSCRIBE_SECRET is set.',
  },
};

export interface Setting {
  name: string;
  /** `required`, `unset` (optional, no default) or the default as written in the environment. */
  default: string;
  values: string;
  description: string;
  /** The sections (services, runners, tests) that read it. */
  readBy: string[];
}

export interface Section {
  title: string;
  intro: string;
  settings: Setting[];
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourcesUnder(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Doc comments written above a setting in the sources (`/** … *\/ NAME: Type…`), for settings without a description. */
function docComments(): Map<string, string> {
  const found = new Map<string, string>();
  const roots = ['packages', 'services'].flatMap((top) =>
    readdirSync(join(REPO_ROOT, top)).map((name) => join(REPO_ROOT, top, name, 'src')),
  );
  for (const file of roots.flatMap((r) => sourcesUnder(r))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /\/\*\*((?:[^*]|\*(?!\/))*)\*\/\s*\n\s*([A-Z][A-Z0-9_]+):\s*(Type\.|[A-Z][A-Za-z]*Setting|Url\()/g,
    )) {
      const body = (m[1] as string)
        .split('\n')
        .map((l) => l.replace(/^\s*\*\s?/, '').trim())
        .filter(Boolean)
        .join(' ');
      if (!found.has(m[2] as string)) found.set(m[2] as string, body);
    }
  }
  return found;
}

function valuesOf(s: TSchema): string {
  if (s.anyOf) return (s.anyOf as TSchema[]).map((o) => `\`${String(o.const)}\``).join(', ');
  const range = (lo: unknown, hi: unknown) =>
    lo !== undefined && hi !== undefined
      ? ` ${lo}–${hi}`
      : lo !== undefined
        ? ` ≥ ${lo}`
        : hi !== undefined
          ? ` ≤ ${hi}`
          : '';
  switch (s.type) {
    case 'integer':
      return `integer${range(s.minimum, s.maximum)}`;
    case 'number':
      return `number${range(s.exclusiveMinimum !== undefined ? `>${s.exclusiveMinimum}` : s.minimum, s.maximum)}`.replace(
        '≥ >',
        '> ',
      );
    case 'boolean':
      return '`true`, `false`';
    default: {
      if (s.pattern && String(s.pattern).length <= 24) return `text matching \`${s.pattern}\``;
      if (s.minLength && s.minLength > 1) return `text, ${s.minLength}+ characters`;
      return 'text';
    }
  }
}

function settingsOf(
  schema: TObject,
  reader: string,
  comments: Map<string, string>,
  skip: ReadonlySet<string> = new Set(),
): Setting[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .filter(([name]) => !skip.has(name))
    .map(([name, s]) => {
      const cluster = CLUSTER_REQUIRED[reader]?.[name];
      const fallback = s.default !== undefined ? String(s.default) : required.has(name) ? 'required' : 'unset';
      const description = [sentence(s.description ?? comments.get(name) ?? ''), cluster ? `**${cluster}**` : '']
        .filter(Boolean)
        .join(' ');
      return {
        name,
        default: s.default === '' ? '""' : fallback,
        values: valuesOf(s),
        description,
        readBy: [reader],
      };
    });
}

/** The reference's sections: settings of every process, the gateway, each service, runners, tests, benchmarks. */
export function configSections(): Section[] {
  const comments = docComments();
  const base = new Set(Object.keys(BaseConfig.properties));
  const sections: Section[] = [
    {
      title: 'Every process',
      intro: 'Read by the gateway and every service (the shared base of each schema).',
      settings: settingsOf(BaseConfig, 'every process', comments),
    },
    {
      title: 'gateway',
      intro: 'The HTTP gateway: auth, rate limits, uploads, real time, sign-in providers.',
      settings: settingsOf(GatewayConfig, 'gateway', comments, base),
    },
    ...SERVICES.map((mod) => {
      const own = mod.config || mod.ledger ? settingsOf(serviceSettings(mod), mod.name, comments, base) : [];
      return { title: mod.name, intro: own.length === 0 ? 'No settings of its own.' : '', settings: own };
    }),
    {
      title: 'Local runners and tools',
      intro: '`pnpm start`, `pnpm start:cluster` and `pnpm demo`.',
      settings: settingsOf(RunnerSettings, 'runners', comments),
    },
    {
      title: 'Tracing',
      intro: 'OpenTelemetry, in every process.',
      settings: settingsOf(TracingSettings, 'tracing', comments),
    },
    {
      title: 'Container deployment',
      intro: 'The image (`infra/docker/Dockerfile`) and `docker-compose.yml`; see `infra/README.md`.',
      settings: settingsOf(DeploymentSettings, 'deployment', comments),
    },
    {
      title: 'Tests',
      intro: 'Read by the test suites only.',
      settings: settingsOf(TestSettings, 'tests', comments),
    },
    {
      title: 'Benchmarks',
      intro: 'Read by `pnpm bench` only.',
      settings: settingsOf(BenchSettings, 'benchmarks', comments),
    },
  ];
  // Who reads each name, across sections (PUBLIC_URL, the storage settings and others are read by several).
  const readers = new Map<string, string[]>();
  for (const sec of sections)
    for (const s of sec.settings) readers.set(s.name, [...(readers.get(s.name) ?? []), sec.title]);
  for (const sec of sections) for (const s of sec.settings) s.readBy = readers.get(s.name) ?? [];
  return sections;
}

/** A description ending in a full stop, so a following sentence reads apart. */
const sentence = (text: string) => (text === '' || /([.!?)]|\*\*)$/.test(text) ? text : `${text}.`);
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (text: string) => (text === 'required' || text === 'unset' ? text : `\`${text}\``);

/** A Markdown table with its columns padded to one width, as the formatter writes them. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** docs/configuration.md: one table per section. */
export function renderConfigDoc(sections: Section[]): string {
  const names = new Set(sections.flatMap((s) => s.settings.map((x) => x.name)));
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated by `pnpm docs:config` from the settings schemas; do not edit by hand. -->',
    '',
    `Every setting Rootline reads (${names.size}), by the process that reads it, with its default. Settings come from`,
    'the environment; `.env.example` lists the same settings. Each process validates its settings at start-up and stops',
    'with a message naming any bad or missing one. An empty value counts as unset. "Cluster mode" is a service running',
    'as its own process, with a `DATABASE_URL`; the embedded process (`pnpm start`) ignores `DATABASE_URL`.',
    '',
    'Keys a service generates into `DATA_DIR` when they are not set (`AUDIT_SIGNING_KEY`, `WEBHOOK_SECRET_KEY`,',
    '`VAPID_PUBLIC_KEY`/`VAPID_PRIVATE_KEY`) must be kept: on a volume, or set here. See `infra/README.md`.',
    '',
  ];
  for (const sec of sections) {
    lines.push(`## ${sec.title}`, '');
    if (sec.intro) lines.push(sec.intro, '');
    if (sec.settings.length === 0) continue;
    const rows = sec.settings.map((s) => {
      const also = s.readBy.filter((r) => r !== sec.title);
      const more = also.length > 0 ? `Also read by: ${also.join(', ')}.` : '';
      const meaning = [sentence(s.description), more].filter(Boolean).join(' ');
      return [`\`${s.name}\``, cell(code(s.default)), cell(s.values), cell(meaning)];
    });
    lines.push(...table(['setting', 'default', 'values', 'meaning'], rows), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A value as a shell and compose both read it: quoted when it holds spaces or shell characters. */
const shellValue = (v: string) => (/^[\w.:/@,+-]*$/.test(v) ? v : `'${v.replaceAll("'", "'\\''")}'`);

/** .env.example: every setting once, commented out at its default, required ones left empty to fill in. */
export function renderEnvExample(sections: Section[]): string {
  const seen = new Set<string>();
  const lines = [
    '# Rootline settings. Copy to .env and uncomment what you change: docker compose reads .env in this folder;',
    '# for pnpm start, export them first (set -a; . ./.env; set +a). An empty value counts as unset.',
    '# Generated by `pnpm docs:config` from the settings schemas; docs/configuration.md explains each one.',
    '',
  ];
  for (const sec of sections) {
    const fresh = sec.settings.filter((s) => !seen.has(s.name));
    if (fresh.length === 0) continue;
    lines.push(`# ---- ${sec.title}`, '');
    for (const s of fresh) {
      seen.add(s.name);
      if (s.description) lines.push(`# ${s.description.replaceAll('**', '').replaceAll('`', '')}`);
      if (s.readBy.length > 1) lines.push(`# Read by: ${s.readBy.join(', ')}.`);
      if (s.default === 'required') lines.push(`${s.name}=`);
      else lines.push(`# ${s.name}=${s.default === 'unset' || s.default === '""' ? '' : shellValue(s.default)}`);
      lines.push('');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Both files, keyed by their path relative to the repository root. */
export function renderConfigReference(): Record<string, string> {
  const sections = configSections();
  return { [CONFIG_DOC]: renderConfigDoc(sections), [ENV_EXAMPLE]: renderEnvExample(sections) };
}

/** Names the sources read from the environment directly (`process.env.X`, `env.X`, `env['X']`), with where. */
export function environmentReads(roots: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const read =
    /\b(?:process\.env|[a-zA-Z]*[eE]nv)(?:\?\.|\.)([A-Z][A-Z0-9_]{2,})\b|\b(?:process\.env|[a-zA-Z]*[eE]nv)\[['"]([A-Z][A-Z0-9_]+)['"]\]/g;
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return ['node_modules', 'dist', 'fixtures'].includes(e.name) ? [] : files(path);
      return /\.(ts|tsx|mts|mjs)$/.test(e.name) ? [path] : [];
    });
  for (const file of roots.flatMap((r) => files(join(REPO_ROOT, r)))) {
    for (const m of readFileSync(file, 'utf8').matchAll(read)) {
      const name = (m[1] ?? m[2]) as string;
      found.set(name, [...(found.get(name) ?? []), relative(REPO_ROOT, file)]);
    }
  }
  return found;
}
