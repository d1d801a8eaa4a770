import { createHash, randomUUID } from 'node:crypto';
import { AppError } from '@rootline/contracts/errors';
import { idFromKey } from '@rootline/contracts/ids';
import type { SeedHandoff } from '@rootline/contracts/seed-handoffs';
import { type HandoffSource, SEED_LOT_UNITS, type SeedLotUnit } from '@rootline/contracts/seed-lots';

/**
 * Seed handed across nodes (ADR 309, 310). The giving node records its seed-sharing event under an id derived from
 * the handoff id, so its ledger transaction's id is known to anyone holding the handoff id: the receiving node needs
 * nothing else to find what it verifies.
 */

/** The reference the giving node records its event under: the event's id, and so its transaction's, follow from it. */
export function outgoingEventRef(handoffId: string): string {
  return `seed-handoff:${handoffId}`;
}

/** The reference of the receiving node's own event (another id than the giver's, converging on retries). */
export function incomingEventRef(peer: string, handoffId: string): string {
  return `seed-handoff-in:${peer}:${handoffId}`;
}

/**
 * The giving node's ledger transaction of a handoff: `tx_` and the suffix of its event's id, derived from the
 * handoff id (the rule of `ledgerTxId`, by which a journey event's transaction is named).
 */
export function handoffTransactionId(handoffId: string): string {
  const eventId = idFromKey('tev', outgoingEventRef(handoffId));
  return `tx_${eventId.slice(eventId.indexOf('_') + 1)}`;
}

/**
 * A handoff id, `urn:uuid:` and a UUID: derived from the request's idempotency reference when it has one (so a
 * retry names the same handoff), otherwise random. The derived one has the shape of a version 4 UUID.
 */
export function newHandoffId(idempotencyRef?: string): string {
  if (!idempotencyRef) return `urn:uuid:${randomUUID()}`;
  const b = createHash('sha256').update(`seed-handoff\n${idempotencyRef}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A lot's unit from a journey event's quantity unit (the reverse of `journeyUnit`); null when no lot has it. */
export function lotUnitOf(unit: unknown): SeedLotUnit | null {
  if (unit === 'g') return 'grams';
  return (SEED_LOT_UNITS as readonly unknown[]).includes(unit) && unit !== 'grams' ? (unit as SeedLotUnit) : null;
}

/** What a verified seed-sharing transaction of a handoff says: the peer's lot, what it handed on, how much. */
export interface HandedLot {
  seedLotId: string;
  crop: string;
  variety: string | null;
  harvestYear: number;
  amount: number;
  unit: SeedLotUnit;
}

const notAHandoff = (why: string) =>
  new AppError('UNPROCESSABLE', `The peer’s transaction is not this seed handoff: ${why}`, { reason: 'not-a-handoff' });

/**
 * Reads a peer's verified transaction as the seed handoff asked for: a `transport.seed-sharing` event naming that
 * handoff id, a lot, a quantity in a lot's unit, and the handed lot's crop and harvest year. Anything else is 422
 * `not-a-handoff` (a transaction of another kind, another handoff, an event recorded without a handoff).
 */
export function readHandoff(tx: { type: string; payload: string }, handoffId: string): HandedLot {
  if (tx.type !== 'transport.seed-sharing') throw notAHandoff(`a ${tx.type} transaction`);
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(tx.payload) as Record<string, unknown>;
  } catch {
    throw notAHandoff('its payload is not JSON');
  }
  if (p.handoffId !== handoffId) throw notAHandoff('it names another handoff id, or none');
  const lot = p.handoffLot as { crop?: unknown; variety?: unknown; harvestYear?: unknown } | undefined;
  const quantity = p.quantity as { value?: unknown; unit?: unknown } | null | undefined;
  const unit = lotUnitOf(quantity?.unit);
  if (typeof p.seedLotId !== 'string' || !lot || typeof lot.crop !== 'string' || !Number.isInteger(lot.harvestYear)) {
    throw notAHandoff('it names no handed lot');
  }
  if (typeof quantity?.value !== 'number' || !(quantity.value > 0) || unit === null) {
    throw notAHandoff('it names no quantity of seed');
  }
  return {
    seedLotId: p.seedLotId,
    crop: lot.crop,
    variety: typeof lot.variety === 'string' ? lot.variety : null,
    harvestYear: lot.harvestYear as number,
    amount: quantity.value,
    unit,
  };
}

/** A stored handoff, either direction. */
export interface StoredHandoff {
  handoffId: string;
  direction: string;
  peer: string;
  seedLotId: string;
  amount: number;
  unit: string;
  recipient: string;
  eventId: string | null;
  transactionId: string | null;
  peerUrl: string | null;
  remoteSeedLotId: string | null;
  remoteTransactionId: string | null;
  blockHash: string | null;
  bundleDigest: string | null;
  checkpointSize: number | null;
  checkpointRoot: string | null;
  verifiedAt: string | null;
  createdAt: string;
}

/** Where an incoming handoff's lot came from, with its proof; null for an outgoing one. */
export function handoffSource(r: StoredHandoff): HandoffSource | null {
  if (r.direction !== 'incoming' || r.remoteSeedLotId === null || r.checkpointSize === null) return null;
  return {
    peer: r.peer,
    url: r.peerUrl ?? '',
    seedLotId: r.remoteSeedLotId,
    handoffId: r.handoffId,
    transactionId: r.remoteTransactionId ?? '',
    blockHash: r.blockHash ?? '',
    bundleDigest: r.bundleDigest ?? '',
    checkpoint: { treeSize: r.checkpointSize, rootHash: r.checkpointRoot ?? '' },
    verifiedAt: new Date(r.verifiedAt ?? r.createdAt).toISOString(),
  };
}

/** A handoff as answered. */
export function handoffView(r: StoredHandoff): SeedHandoff {
  return {
    id: r.handoffId,
    direction: r.direction as SeedHandoff['direction'],
    seedLotId: r.seedLotId,
    peer: r.peer,
    quantity: { amount: r.amount, unit: r.unit as SeedLotUnit },
    recipient: r.recipient,
    eventId: r.eventId,
    transactionId: r.transactionId,
    source: handoffSource(r),
    createdAt: new Date(r.createdAt).toISOString(),
  };
}
