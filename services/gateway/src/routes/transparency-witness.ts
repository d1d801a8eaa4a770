import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAppError, WITNESS_BODY_MAX, witnessAddCheckpoint, witnessInfoGet } from '@rootline/contracts';
import { call } from '@rootline/host';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import { callContext } from '../http/request-context.js';
import { errorResponses } from '../plugins/openapi.js';

const TAGS = ['Transparency'];

// A real exchange: a log of 12 entries (`entry 0`…`entry 11`, key of seed 0x01…, verifier key
// `rootline.example/api/transparency/log+b94e0ea3+AYqI4910CfGV/VLbLTy6XXLKZwm/HZQSG/N0iAG0D29c`) asks a witness
// (key of seed 0x02…) that holds nothing of it yet, so from size 0 and without proof lines; the cosignature is of
// time 1764417600. Once the witness holds a size, the request starts `old <that size>` and carries the proof from it.
const EXAMPLE_REQUEST = [
  'old 0',
  '',
  'rootline.example/api/transparency/log',
  '12',
  'Z1ITGNKsIBtsb/ynvfF/2RfXgAasM93eLJ2J5p4Di5E=',
  '',
  '\u2014 rootline.example/api/transparency/log uU4OowuX02ilN1SpbAfmuSDzw2Ffs1m62cT5gQNArVg0dNXNS92nsKd+3Mko6StdiRuDYamdObW2ORkPntb3zHlDQAQ=',
  '',
].join('\n');
const EXAMPLE_COSIGNATURE =
  '\u2014 witness.example/api/transparency/witness YDw/bgAAAABpKuBAWgZsLZ2H1OIeQOMXiMB9PUzpF5CjLCzy4AurdFRdFTAE81JOzlPWJjzerNWe/UqWsJpzMBU0Jz6yfm2NcOZhCQ==\n';

/**
 * The witness this node runs, speaking c2sp.org/tlog-witness under the submission prefix
 * `/api/transparency/witness`: logs POST a checkpoint with a consistency proof and get a cosignature back. The body is
 * the protocol's text, so this plugin reads any content type as text; requests are not authenticated beyond the
 * log's signature on the checkpoint, as the protocol says.
 */
export const transparencyWitnessRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: WITNESS_BODY_MAX }, (_req, body, done) =>
    done(null, body),
  );

  app.route({
    method: 'POST',
    url: '/witness/add-checkpoint',
    config: { public: true, object: { rule: 'none', why: 'a log’s checkpoint, checked by its signature' } },
    schema: {
      operationId: 'witnessAddCheckpoint',
      summary: 'Cosign a log’s checkpoint (c2sp.org/tlog-witness add-checkpoint)',
      description:
        'The witness side of c2sp.org/tlog-witness. The body (any content type, read as text) is `old <size>`, up to ' +
        '63 base64 consistency proof lines (RFC 6962 §2.1.2, from the old size to the checkpoint’s), a blank line ' +
        'and the checkpoint as a signed note. The witness follows only the logs set in WITNESS_LOGS (origin and ' +
        'verifier key). It checks a signature by the log, that the old size is the size it last cosigned for that ' +
        'log, and the proof, then records the checkpoint and answers its timestamped Ed25519 `cosignature/v1` line ' +
        '(c2sp.org/tlog-cosignature, key in `GET /witness`). Refusals: 400 malformed or old size above the ' +
        'checkpoint’s; 403 no valid signature by the log; 404 a log it does not follow; 409 the old size is not the ' +
        'one it holds, or another root at that size (body: the size it holds and a newline, `text/x.tlog.size`); ' +
        '422 the proof does not verify. No account needed.',
      tags: TAGS,
      body: {
        content: {
          'text/plain': { schema: { type: 'string', maxLength: WITNESS_BODY_MAX, examples: [EXAMPLE_REQUEST] } },
        },
      },
      response: {
        200: {
          description: 'The cosignature line(s), `text/plain`',
          content: { 'text/plain': { schema: { type: 'string', examples: [EXAMPLE_COSIGNATURE] } } },
        },
        409: {
          description: 'The size the witness last cosigned for this log, in decimal, then a newline',
          content: { 'text/x.tlog.size': { schema: { type: 'string', examples: ['8\n'] } } },
        },
        ...errorResponses([
          'VALIDATION_ERROR',
          'FORBIDDEN',
          'NOT_FOUND',
          'UNPROCESSABLE',
          'RATE_LIMITED',
          'INTERNAL',
          'UNAVAILABLE',
        ]),
      },
    },
    handler: async (req, reply) => {
      const body = typeof req.body === 'string' ? req.body : '';
      try {
        const { cosignatures } = await call(deps.bus, witnessAddCheckpoint, { body }, callContext(req), deps.timeoutMs);
        reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
        return cosignatures;
      } catch (err) {
        const size = isAppError(err) && err.code === 'CONFLICT' ? (err.details as { size?: unknown })?.size : undefined;
        if (typeof size !== 'number') throw err;
        reply.code(409).type('text/x.tlog.size').header('cache-control', 'no-store');
        return `${size}\n`;
      }
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/witness',
    summary: 'The witness’s key and followed logs',
    description:
      'The name and cosigner verifier key (`<name>+<id>+base64(0x04 ‖ key)`, c2sp.org/tlog-cosignature) of the ' +
      'witness this node runs, and each log it follows with the size it last cosigned. A log operator adds the key ' +
      'and `<origin>/api/transparency/witness` to its witnesses (AUDIT_WITNESSES here). No account needed.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the witness’s public state' } },
    subject: witnessInfoGet,
    cache: () => 'public, max-age=10',
  });
};
