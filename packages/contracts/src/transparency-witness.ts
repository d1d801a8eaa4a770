import { type Static, Type } from '@sinclair/typebox';
import { Text } from './common.js';
import { defineSubject, Named } from './define.js';

/** The largest add-checkpoint body a witness reads: 63 proof lines and a checkpoint with its signatures fit. */
export const WITNESS_BODY_MAX = 16_384;

/**
 * transparency.witness.add-checkpoint: the witness side of c2sp.org/tlog-witness. The body is the protocol's text
 * (old size line, consistency proof lines, blank line, signed checkpoint); the reply is the witness's cosignature
 * line(s). Refusals are errors: VALIDATION_ERROR (400, malformed or old size above the checkpoint's), FORBIDDEN (403,
 * no valid signature by the log), NOT_FOUND (404, a log the witness does not follow), CONFLICT (409, `details.size` is
 * the size the witness last cosigned) and UNPROCESSABLE (422, the consistency proof does not verify).
 */
export const witnessAddCheckpoint = defineSubject({
  subject: 'transparency.witness.add-checkpoint',
  request: Type.Object({
    body: Text({ maxLength: WITNESS_BODY_MAX, description: 'The add-checkpoint request body, as sent' }),
  }),
  reply: Type.Object({
    cosignatures: Type.String({
      description: 'One or more note signature lines `— <witness name> base64(key id ‖ timestamp ‖ signature)\\n`',
    }),
  }),
  summary: 'Cosign a checkpoint of a followed log after checking its signature and consistency (c2sp.org/tlog-witness)',
});

/** The witness this node runs: its name and key, and the logs it follows. */
export const WitnessInfo = Named(
  'WitnessInfo',
  Type.Object(
    {
      name: Type.String({ description: 'The witness’s key name in cosignature lines' }),
      verifierKey: Type.String({
        description:
          'The cosigner verifier key `<name>+<key id>+base64(0x04 ‖ Ed25519 public key)` (c2sp.org/tlog-cosignature)',
      }),
      logs: Type.Array(
        Type.Object({
          origin: Type.String({ description: 'The checkpoint origin of a followed log' }),
          size: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
            description: 'The size the witness last cosigned; null before the first',
          }),
        }),
        { description: 'Every log the witness follows (a handful, set in WITNESS_LOGS)' },
      ),
    },
    {
      examples: [
        {
          name: 'witness.example/api/transparency/witness',
          verifierKey: 'witness.example/api/transparency/witness+603c3f6e+BIE5dw6ofRdfVqNUZsNMfszLjYqRtO43ol32D1uPybOU',
          logs: [{ origin: 'rootline.example/api/transparency/log', size: 12 }],
        },
      ],
    },
  ),
);
export type WitnessInfo = Static<typeof WitnessInfo>;

export const witnessInfoGet = defineSubject({
  subject: 'transparency.witness.get',
  request: Type.Object({}),
  reply: WitnessInfo,
  summary: 'The witness’s name, verifier key and the logs it follows',
});
