// The floor of a service process's memory: a process that loads only the libraries every Rootline service is built
// on (Fastify, nats.js, postgres.js, drizzle, TypeBox, pino, prom-client with its default metrics, OpenTelemetry's
// API) and answers GET /floor/:n with one NATS request to a subscriber of its own that runs one drizzle query, and
// none of Rootline's code. `pnpm bench:startup` runs it with the V8 flags of a service process and reads its resident
// memory after 200 requests, beside the services'. Plain JavaScript, run by node as the compiled services are: a
// TypeScript loader would add its own memory to the figure.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import Fastify from 'fastify';
import { connect } from 'nats';
import postgres from 'postgres';

// The libraries the services reach through @rootline/host, resolved where it resolves them.
const fromHost = createRequire(fileURLToPath(import.meta.resolve('@rootline/host')));
const pino = (await import(fromHost.resolve('pino'))).default;
const prom = (await import(fromHost.resolve('prom-client'))).default;
const otel = await import(fromHost.resolve('@opentelemetry/api'));

function requiredEnv(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const log = pino({ level: 'warn' });
const registry = new prom.Registry();
prom.collectDefaultMetrics({ register: registry });
const served = new prom.Histogram({ name: 'floor_seconds', help: 'requests', registers: [registry] });
const tracer = otel.trace.getTracer('stack-floor');
const client = postgres(requiredEnv('DATABASE_URL'), { max: 10, onnotice: () => {} });
const db = drizzle(client);
const nc = await connect({ servers: requiredEnv('NATS_URL'), name: 'bench-stack-floor', noAsyncTraces: true });
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const Reply = Type.Object({ n: Type.Integer(), at: Type.String() });

nc.subscribe('bench.floor.get', {
  queue: 'bench-floor',
  callback: (err, msg) => {
    if (err) return;
    const n = Number(decoder.decode(msg.data));
    db.execute(sql`select ${n}::int as n, now()::text as at`).then(
      ([row]) => {
        const reply = { n: Number(row.n), at: String(row.at) };
        if (!Value.Check(Reply, reply)) throw new Error('reply does not match its schema');
        msg.respond(encoder.encode(JSON.stringify(reply)));
      },
      (e) => {
        log.error({ err: e }, 'floor query failed');
        msg.respond(encoder.encode('{}'));
      },
    );
  },
});

const app = Fastify();
app.get(
  '/floor/:n',
  { schema: { params: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } },
  async (req) => {
    const end = served.startTimer();
    const span = tracer.startSpan('floor');
    const msg = await nc.request('bench.floor.get', encoder.encode(String(req.params.n)), { timeout: 5000 });
    span.end();
    end();
    return { success: true, data: JSON.parse(decoder.decode(msg.data)), error: null };
  },
);
await app.listen({ port: Number(requiredEnv('PORT')), host: '127.0.0.1' });

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => nc.drain())
    .then(() => client.end({ timeout: 5 }))
    .finally(() => process.exit(0));
});
