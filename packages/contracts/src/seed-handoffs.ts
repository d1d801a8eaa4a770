import { type Static, Type } from '@sinclair/typebox';
import { PeerName, SeedLotId, Text, Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { StringEnum } from './plants.js';
import { HandoffSource, SEED_LOT_UNITS } from './seed-lots.js';
import { HANDOFF_ID_PATTERN, HandoffId } from './transport.js';

/**
 * Seed handed across nodes (docs/federation.md, Seed handed to another node; ADR 309, 310): the holder of a lot on
 * one node hands seed to a grower on a peer node; both nodes record it under one handoff id, outgoing on the giving
 * node and incoming on the receiving one, which records its side only on the giving node's verified transaction.
 */

export { HANDOFF_ID_PATTERN, HandoffId, HandoffSource };

export const HANDOFF_DIRECTIONS = ['outgoing', 'incoming'] as const;
export type HandoffDirection = (typeof HANDOFF_DIRECTIONS)[number];

/** Set by the gateway, whatever the body says: the caller's account name, recorded on the journey event. */
const CallerName = Type.Optional(
  Text({
    minLength: 1,
    maxLength: 200,
    description: 'Set by the gateway, whatever the body says: the caller’s account name, named on the journey event',
  }),
);

export const SeedHandoffInput = Type.Object(
  {
    peer: PeerName,
    quantity: Type.Object(
      {
        amount: Type.Number({
          exclusiveMinimum: 0,
          maximum: 1_000_000_000,
          description: 'How much is handed on, in the lot’s unit; at most what the lot holds',
        }),
      },
      { additionalProperties: false },
    ),
    recipient: Text({
      minLength: 1,
      maxLength: 200,
      description: 'Who receives it on the peer: a name, or their account id there (recorded as stated)',
      examples: ['Ana Grower (usr_01HZX3K6Q2W8N4B7T5R9V0C1MF on north-farm)'],
    }),
    callerName: CallerName,
  },
  { additionalProperties: false },
);
export type SeedHandoffInput = Static<typeof SeedHandoffInput>;

export const SeedHandoffReceiveInput = Type.Object(
  {
    peer: PeerName,
    handoffId: HandoffId,
    callerName: CallerName,
  },
  { additionalProperties: false },
);
export type SeedHandoffReceiveInput = Static<typeof SeedHandoffReceiveInput>;

export const SeedHandoff = Named(
  'SeedHandoff',
  Type.Object({
    id: HandoffId,
    direction: StringEnum(HANDOFF_DIRECTIONS, {
      description: 'outgoing: seed went out of this lot to a peer; incoming: this lot came in from a peer',
    }),
    seedLotId: SeedLotId,
    peer: Type.String({ description: 'The other node: its name in this node’s PEERS' }),
    quantity: Type.Object({ amount: Type.Number(), unit: StringEnum(SEED_LOT_UNITS) }),
    recipient: Type.String({
      description: 'Who receives it: as stated when handed (outgoing), the claimant (incoming)',
    }),
    eventId: Type.Union([Type.String(), Type.Null()], {
      description: 'This node’s seed-sharing journey event of the handoff; null until recorded',
    }),
    transactionId: Type.Union([Type.String(), Type.Null()], {
      description:
        'Outgoing: the ledger transaction of the event, which the receiving node verifies (derived from the handoff ' +
        'id); incoming: this node’s transaction of its own event. Null until recorded',
    }),
    source: Type.Union([HandoffSource, Type.Null()], {
      description: 'Incoming: the giving node’s lot and the proof it was accepted on; null for an outgoing one',
    }),
    createdAt: Timestamp,
  }),
);
export type SeedHandoff = Static<typeof SeedHandoff>;

export const seedHandoffCreate = defineSubject({
  subject: 'plants.seed-handoff.create',
  request: Type.Object({ seedLotId: SeedLotId, ...SeedHandoffInput.properties }, { additionalProperties: false }),
  reply: SeedHandoff,
  summary: 'Hand seed of a lot to a grower on a peer node: the lot’s quantity goes down, a handoff id is made',
});

export const seedHandoffList = defineSubject({
  subject: 'plants.seed-handoff.list',
  request: Type.Object({ seedLotId: SeedLotId, ...PageQuery.properties }),
  reply: Type.Object({ items: Type.Array(SeedHandoff), pagination: Pagination }),
  summary: 'The handoffs across nodes of a lot, newest first',
});

export const seedHandoffReceive = defineSubject({
  subject: 'plants.seed-handoff.receive',
  request: SeedHandoffReceiveInput,
  reply: SeedHandoff,
  summary: 'Receive seed handed from a peer node: a new lot once the peer’s transaction verifies',
});
