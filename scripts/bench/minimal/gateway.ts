// The minimal pipeline's front: a bare Fastify server, no plugins, no logger. GET /plants/:id and
// GET /plants/nearby?lat=&lon= are one NATS request each; the reply is wrapped in the same envelope the platform
// answers with. It is the floor the platform's gateway is compared against.
import Fastify from 'fastify';
import { connect } from 'nats';
import { MINIMAL_NEARBY_SUBJECT, MINIMAL_PLANT_SUBJECT, requiredEnv } from './protocol.js';

// With the client options the platform's bus uses: nats.js otherwise captures a stack trace for every request (to
// report where a timed-out request was made), which took about a sixth of this process's CPU in a profile.
const nc = await connect({ servers: requiredEnv('NATS_URL'), name: 'bench-minimal-gateway', noAsyncTraces: true });
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const app = Fastify();

app.get<{ Params: { id: string } }>('/plants/:id', async (req, reply) => {
  const msg = await nc.request(MINIMAL_PLANT_SUBJECT, encoder.encode(req.params.id), { timeout: 5000 });
  reply.type('application/json');
  if (msg.data.length === 0) {
    reply.code(404);
    return '{"success":false,"data":null,"error":{"code":"NOT_FOUND","message":"Plant not found"}}';
  }
  if (msg.data[0] !== OPEN_BRACE) {
    reply.code(500);
    return '{"success":false,"data":null,"error":{"code":"INTERNAL","message":"Internal error"}}';
  }
  return `{"success":true,"data":${decoder.decode(msg.data)},"error":null}`;
});

app.get<{ Querystring: { lat?: string; lon?: string } }>('/plants/nearby', async (req, reply) => {
  const msg = await nc.request(MINIMAL_NEARBY_SUBJECT, encoder.encode(`${req.query.lat},${req.query.lon}`), {
    timeout: 5000,
  });
  reply.type('application/json');
  if (msg.data[0] !== OPEN_BRACKET) {
    reply.code(500);
    return '{"success":false,"data":null,"error":{"code":"INTERNAL","message":"Internal error"}}';
  }
  return `{"success":true,"data":${decoder.decode(msg.data)},"error":null}`;
});

await app.listen({ port: Number(requiredEnv('PORT')), host: '127.0.0.1' });

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => nc.drain())
    .finally(() => process.exit(0));
});
