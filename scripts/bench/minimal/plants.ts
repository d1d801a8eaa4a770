// The minimal pipeline's back: a bare NATS queue subscriber that reads one row with postgres.js and replies
// with it as JSON. Same pool size and driver settings as the platform's services (`openDatabase`), no
// framework around it.
import { connect } from 'nats';
import postgres from 'postgres';
import { MINIMAL_PLANT_SUBJECT, MINIMAL_QUEUE, requiredEnv } from './protocol.js';

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

nc.subscribe(MINIMAL_PLANT_SUBJECT, {
  queue: MINIMAL_QUEUE,
  callback: (err, msg) => {
    if (err) return;
    findPlant(decoder.decode(msg.data)).then(
      (json) => msg.respond(encoder.encode(json)),
      (e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        process.stderr.write(`minimal plants: ${message}\n`);
        msg.respond(encoder.encode(message || 'error'));
      },
    );
  },
});
await nc.flush();

process.once('SIGTERM', () => {
  void nc
    .drain()
    .then(() => sql.end({ timeout: 5 }))
    .finally(() => process.exit(0));
});
