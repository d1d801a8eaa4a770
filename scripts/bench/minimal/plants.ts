// The minimal pipeline's back: a bare NATS queue subscriber that reads one row with postgres.js and replies
// with it as JSON, and runs the plants service's own nearby statement and replies with its rows. Same pool size
// and driver settings as the platform's services (`openDatabase`), no framework around it.
import { NEARBY_EXACT_TOTAL_MAX, NEARBY_LIMITS, PAGE_DEFAULTS } from '@rootline/contracts';
import { nearbyArea, nearbyStatementText } from '@rootline/plants/nearby-statement';
import { connect, type Msg } from 'nats';
import postgres from 'postgres';
import { MINIMAL_NEARBY_SUBJECT, MINIMAL_PLANT_SUBJECT, MINIMAL_QUEUE, requiredEnv } from './protocol.js';

// As in `openDatabase`: one query per connection at a time (spread, the option is missing from the types).
const unpipelined = { max_pipeline: 0 };
const sql = postgres(requiredEnv('DATABASE_URL'), {
  ...unpipelined,
  max: Number(requiredEnv('POOL_MAX')),
  onnotice: () => {},
  connect_timeout: 10,
  connection: { application_name: 'rootline-bench-minimal' },
});
const nc = await connect({ servers: requiredEnv('NATS_URL'), name: 'bench-minimal-plants', noAsyncTraces: true });
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The plant's row as JSON: every column, as the platform's repository reads it (`db.select()`), without
 * mapping it to the API's shape. That mapping is a few object literals; leaving it out keeps this the floor
 * whatever columns the table gains.
 */
async function findPlant(id: string): Promise<string> {
  const [row] = await sql`SELECT * FROM plants.plants WHERE id = ${id} LIMIT 1`;
  return row ? JSON.stringify(row) : '';
}

/**
 * The rows of the plants service's nearby statement (the page with its counts) around `lat,lon`, as JSON: the
 * service's database work, without its validation, mapping to the API's shape or serialisation by the contract.
 */
async function findNearby(point: string): Promise<string> {
  const [latitude, longitude] = point.split(',').map(Number);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) throw new Error(`not a point: ${point}`);
  // The API's defaults: radius and first page.
  const area = nearbyArea({ latitude: latitude!, longitude: longitude! }, NEARBY_LIMITS.defaultRadiusKm);
  const { text, values } = nearbyStatementText(area, 0, PAGE_DEFAULTS.limit, NEARBY_EXACT_TOTAL_MAX + 1);
  // Prepared, as the service runs it: parsed once per connection, its plan reused.
  const rows = await sql.unsafe(text, values as postgres.ParameterOrJSON<never>[], { prepare: true });
  return JSON.stringify(rows);
}

/** Answers each request on `subject` with what `answer` makes of its text, or the error's message. */
function respond(subject: string, answer: (request: string) => Promise<string>): void {
  nc.subscribe(subject, {
    queue: MINIMAL_QUEUE,
    callback: (err, msg: Msg) => {
      if (err) return;
      answer(decoder.decode(msg.data)).then(
        (json) => msg.respond(encoder.encode(json)),
        (e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          process.stderr.write(`minimal plants: ${message}\n`);
          msg.respond(encoder.encode(message || 'error'));
        },
      );
    },
  });
}

respond(MINIMAL_PLANT_SUBJECT, findPlant);
respond(MINIMAL_NEARBY_SUBJECT, findNearby);
await nc.flush();

process.once('SIGTERM', () => {
  void nc
    .drain()
    .then(() => sql.end({ timeout: 5 }))
    .finally(() => process.exit(0));
});
