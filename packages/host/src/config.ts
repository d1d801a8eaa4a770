import { DEFAULT_PGLITE_COMPILER, PGLITE_COMPILERS } from '@rootline/db';
import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Settings every process shares. */
export const BaseConfig = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
    description: 'Kind of installation (the image sets production)',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'Least severe log lines written (silent: none)' },
  ),
  NATS_URL: Type.String({ description: 'NATS server with JetStream (cluster mode)', default: 'nats://127.0.0.1:4222' }),
  DATABASE_URL: Type.Optional(
    Type.String({
      description: 'PostgreSQL; required for a service running as its own process (cluster mode)',
      pattern: '^postgres(ql)?://',
    }),
  ),
  DATABASE_READ_URL: Type.Optional(
    Type.String({
      description:
        'A streaming replica of DATABASE_URL (hot standby) for the reads of a read-heavy service; cluster mode only (docs/read-replicas.md)',
      pattern: '^postgres(ql)?://',
    }),
  ),
  DATA_DIR: Type.String({
    description:
      "Embedded mode's database (PGlite), generated keys and local files; relative paths from where pnpm ran",
    default: './data',
    minLength: 1,
  }),
  PGLITE_COMPILER: Type.Union(
    PGLITE_COMPILERS.map((c) => Type.Literal(c)),
    {
      default: DEFAULT_PGLITE_COMPILER,
      description:
        "Embedded mode: how V8 compiles PGlite's WebAssembly. baseline holds about 50 MiB less; optimizing answers large scans up to twice as fast (docs/adr/171-embedded-wasm-baseline-compiler.md)",
    },
  ),
  REQUEST_TIMEOUT_MS: Type.Integer({
    description: 'How long a request over the bus waits for its answer (the gateway then answers 503 UNAVAILABLE)',
    default: 5000,
    minimum: 100,
    maximum: 120_000,
  }),
  /**
   * Port of a service process's own listener in cluster mode: Prometheus metrics at /metrics and the probes
   * /health/live and /health/ready. 0 turns it off. Not used by the gateway (/api/metrics) nor in embedded mode.
   */
  METRICS_PORT: Type.Integer({ default: 9464, minimum: 0, maximum: 65_535 }),
  /**
   * SOCKS5 proxy for HTTP that leaves the system (webhooks, Web Push), e.g. Tor's `socks5h://127.0.0.1:9050`:
   * `socks5h` lets the proxy resolve names (needed for .onion), `socks5` resolves them here.
   */
  SOCKS_PROXY_URL: Type.Optional(Type.String({ pattern: '^socks5h?://' })),
});
export type BaseConfig = Static<typeof BaseConfig>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates configuration from environment variables. Values are converted to the schema's types
 * and defaults applied; a bad value fails with an error that names the variable.
 */
export function loadConfig<T extends TObject>(schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const converted = Value.Default(schema, Value.Convert(schema, raw));
  const errors = [...Value.Errors(schema, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, '') || '(root)';
      const got = name in raw ? ` (got ${JSON.stringify(raw[name])})` : ' (not set)';
      return `${name}: ${e.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${[...new Set(lines)].join('\n  ')}`);
  }
  return converted as Static<T>;
}

/** Composes the base settings with a service's own. */
export function withBase<T extends Record<string, TSchema>>(props: T) {
  return Type.Object({ ...BaseConfig.properties, ...props });
}
