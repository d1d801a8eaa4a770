import { type Static, Type } from '@sinclair/typebox';
import { PartyInput, PrefixedId, RecordedParty, SeedLotId, Text, Timestamp } from './common.js';
import { defineEvent, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { PlantId, StringEnum } from './plants.js';

/**
 * Ownership transfers (docs/transfers.md, ADR 265–267): the giving side proposes to move a record it owns to a
 * recipient (a person or an organization), the recipient accepts or declines, the giver may cancel while it is
 * pending; an accepted transfer is an `ownership.transfer` transaction on the ledger naming both sides and who
 * signed for each, and the record's owner changes.
 */

export const TransferId = PrefixedId('trf', 'Ownership transfer identifier');

/** What may be transferred: plants and seed lots, both kept by the plants service (ADR 265, 290). */
export const TRANSFER_SUBJECT_TYPES = ['plant', 'seed-lot'] as const;
export type TransferSubjectType = (typeof TRANSFER_SUBJECT_TYPES)[number];
export const TransferSubjectTypeSchema = StringEnum(TRANSFER_SUBJECT_TYPES, {
  description: 'The kind of record transferred: `plant` (a plant id, `plt_…`) or `seed-lot` (a seed lot id, `lot_…`)',
});

export const TRANSFER_STATUSES = ['pending', 'accepted', 'declined', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const TransferStatusSchema = StringEnum(TRANSFER_STATUSES, {
  description:
    '`pending` until the recipient accepts (`accepted`, on the ledger) or declines (`declined`), or the giver ' +
    'cancels (`cancelled`)',
});

/** Who signed for a side: the person, and the organization they acted for (null when they acted for themselves). */
export const TransferSigner = Named(
  'TransferSigner',
  Type.Object({
    accountId: Type.String({ description: 'The account that acted' }),
    organizationId: Type.Union([Type.String(), Type.Null()], {
      description: 'The organization the account acted for, with its role there; null when it acted for itself',
    }),
    role: Type.Union([Type.String(), Type.Null()], { description: 'Its organization role then; null for a person' }),
  }),
);
export type TransferSigner = Static<typeof TransferSigner>;

export const OwnershipTransfer = Named(
  'OwnershipTransfer',
  Type.Object({
    id: TransferId,
    subjectType: TransferSubjectTypeSchema,
    subjectId: Type.String({ description: 'The id of the record transferred (a plant id or a seed lot id)' }),
    subjectName: Type.String({
      description:
        'Its name when the transfer was proposed: a plant’s common name; a seed lot’s crop, variety and harvest ' +
        'year, e.g. "tomato, Brandywine (2026)"',
    }),
    status: TransferStatusSchema,
    from: RecordedParty,
    to: RecordedParty,
    message: Type.Union([Type.String(), Type.Null()], { description: 'A word from the giver to the recipient' }),
    givenBy: TransferSigner,
    acceptedBy: Type.Union([TransferSigner, Type.Null()], { description: 'Who accepted; null unless accepted' }),
    decidedBy: Type.Union([Type.String(), Type.Null()], {
      description: 'The account that accepted, declined or cancelled it; null while pending',
    }),
    createdAt: Timestamp,
    decidedAt: Type.Union([Timestamp, Type.Null()]),
    block: Type.Union([Type.Object({ index: Type.Integer(), hash: Type.String(), txId: Type.String() }), Type.Null()], {
      description: 'The block of its `ownership.transfer` transaction once accepted; null otherwise',
    }),
  }),
);
export type OwnershipTransfer = Static<typeof OwnershipTransfer>;

export const TransferInput = Named(
  'TransferInput',
  Type.Object(
    {
      subjectType: TransferSubjectTypeSchema,
      subjectId: Text({
        minLength: 1,
        maxLength: 120,
        description: 'The id of the record to transfer: a plant id for `plant`, a seed lot id for `seed-lot`',
      }),
      to: PartyInput,
      message: Type.Optional(Text({ maxLength: 500, description: 'A word for the recipient' })),
    },
    { additionalProperties: false },
  ),
);
export type TransferInput = Static<typeof TransferInput>;

export const TRANSFER_DIRECTIONS = ['incoming', 'outgoing'] as const;
export const TransferQuery = Type.Object({
  direction: Type.Optional(
    StringEnum(TRANSFER_DIRECTIONS, {
      description:
        '`incoming`: to the caller (or the organization acted for); `outgoing`: from them. Both when left out',
    }),
  ),
  status: Type.Optional(TransferStatusSchema),
  subjectId: Type.Optional(Text({ minLength: 1, maxLength: 120, description: 'Only those of this record' })),
  ...PageQuery.properties,
});
export type TransferQuery = Static<typeof TransferQuery>;

export const transferPropose = defineSubject({
  subject: 'plants.transfer.propose',
  request: TransferInput,
  reply: OwnershipTransfer,
  summary: 'Propose to transfer a record one owns to a person or an organization',
});

export const transferGet = defineSubject({
  subject: 'plants.transfer.get',
  request: Type.Object({ transferId: TransferId }),
  reply: OwnershipTransfer,
  summary: 'Read a transfer (its parties only)',
});

export const transferList = defineSubject({
  subject: 'plants.transfer.list',
  request: TransferQuery,
  reply: Type.Object({ items: Type.Array(OwnershipTransfer), pagination: Pagination }),
  summary: 'The transfers to or from the caller or the organization acted for, newest first',
});

/** The answers to a pending transfer: the recipient's accept and decline, the giver's cancel. */
export const transferAccept = defineSubject({
  subject: 'plants.transfer.accept',
  request: Type.Object({ transferId: TransferId }),
  reply: OwnershipTransfer,
  summary: 'Accept a transfer: recorded on the ledger, the record changes owner',
});
export const transferDecline = defineSubject({
  subject: 'plants.transfer.decline',
  request: Type.Object({ transferId: TransferId }),
  reply: OwnershipTransfer,
  summary: 'Decline a transfer',
});
export const transferCancel = defineSubject({
  subject: 'plants.transfer.cancel',
  request: Type.Object({ transferId: TransferId }),
  reply: OwnershipTransfer,
  summary: 'Cancel a pending transfer one proposed',
});

/** A plant's or seed lot's accepted transfers, oldest first: its ownership history (public, like the ledger). */
export const OwnershipChange = Named(
  'OwnershipChange',
  Type.Object({
    transferId: TransferId,
    from: RecordedParty,
    to: RecordedParty,
    givenBy: TransferSigner,
    acceptedBy: TransferSigner,
    at: Timestamp,
    block: Type.Object({ index: Type.Integer(), hash: Type.String(), txId: Type.String() }),
  }),
);
export type OwnershipChange = Static<typeof OwnershipChange>;

export const plantOwnershipHistory = defineSubject({
  subject: 'plants.ownership.history',
  request: Type.Object({ plantId: PlantId }),
  reply: Type.Object({ items: Type.Array(OwnershipChange) }),
  summary: 'The accepted transfers of a plant, oldest first',
});

export const seedLotOwnershipHistory = defineSubject({
  subject: 'plants.seed-lot.ownership',
  request: Type.Object({ seedLotId: SeedLotId }),
  reply: Type.Object({ items: Type.Array(OwnershipChange) }),
  summary: 'The accepted transfers of a seed lot, oldest first',
});

const TransferEventBase = {
  transferId: Type.String(),
  subjectType: Type.String(),
  subjectId: Type.String(),
  subjectName: Type.String(),
  fromId: Type.String(),
  fromName: Type.String(),
  toId: Type.String(),
  toName: Type.String(),
  /** The accounts to tell: the recipient person, or the owners and managers of the receiving organization. */
  audience: Type.Array(Type.String(), { description: 'The accounts told of it (the other side’s)' }),
};

/** A transfer was proposed: the recipient side hears of it. */
export const transferProposed = defineEvent({
  subject: 'evt.plants.transfer.proposed',
  payload: Type.Object({ ...TransferEventBase, proposedBy: Type.String() }),
});
/** A transfer was accepted and recorded on the ledger: the record changed owner. */
export const transferAccepted = defineEvent({
  subject: 'evt.plants.transfer.accepted',
  payload: Type.Object({
    ...TransferEventBase,
    givenById: Type.String({ description: 'The account that gave it (for the giving side)' }),
    acceptedById: Type.String({ description: 'The account that accepted it (for the receiving side)' }),
    txId: Type.String({ description: 'The ledger transaction `ownership.transfer` that recorded it' }),
  }),
});
export const transferDeclined = defineEvent({
  subject: 'evt.plants.transfer.declined',
  payload: Type.Object({ ...TransferEventBase, declinedBy: Type.String() }),
});
export const transferCancelled = defineEvent({
  subject: 'evt.plants.transfer.cancelled',
  payload: Type.Object({ ...TransferEventBase, cancelledBy: Type.String() }),
});
