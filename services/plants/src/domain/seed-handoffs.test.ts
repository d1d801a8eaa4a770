import { AppError } from '@rootline/contracts/errors';
import { idFromKey } from '@rootline/contracts/ids';
import { HANDOFF_ID_PATTERN } from '@rootline/contracts/transport';
import { describe, expect, it } from 'vitest';
import {
  handoffSource,
  handoffTransactionId,
  handoffView,
  incomingEventRef,
  lotUnitOf,
  newHandoffId,
  outgoingEventRef,
  readHandoff,
  type StoredHandoff,
} from './seed-handoffs.js';

const ID = 'urn:uuid:3f2b8c1e-9d4a-4e6b-8f1c-2a7d5e9b0c34';

describe('handoff ids', () => {
  it('are urn:uuid version 4 shaped, the same for one idempotency reference and random without one', () => {
    const pattern = new RegExp(HANDOFF_ID_PATTERN);
    const derived = newHandoffId('ref-1');
    expect(derived).toMatch(pattern);
    expect(derived).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newHandoffId('ref-1')).toBe(derived);
    expect(newHandoffId('ref-2')).not.toBe(derived);
    const random = newHandoffId();
    expect(random).toMatch(pattern);
    expect(newHandoffId()).not.toBe(random);
  });

  it('name the giving node’s transaction: tx_ and the id of the event recorded under the handoff’s reference', () => {
    const eventId = idFromKey('tev', outgoingEventRef(ID));
    // As `ledgerTxId` names a journey event's transaction: `tx_` and the event id's suffix.
    expect(handoffTransactionId(ID)).toBe(`tx_${eventId.slice('tev_'.length)}`);
    expect(handoffTransactionId(ID)).toMatch(/^tx_[0-9A-Z]{26}$/);
    expect(handoffTransactionId(ID.replace('34', '35'))).not.toBe(handoffTransactionId(ID));
    // The receiving node records its own event under another reference, so another id.
    expect(idFromKey('tev', incomingEventRef('north-farm', ID))).not.toBe(eventId);
  });
});

describe('readHandoff', () => {
  const payload = {
    id: 'tev_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    kind: 'seed-sharing',
    seedLotId: 'lot_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    quantity: { value: 50, unit: 'g' },
    handoffId: ID,
    handoffLot: { crop: 'Bean', variety: 'Borlotti', harvestYear: 2025 },
  };
  const tx = (p: unknown, type = 'transport.seed-sharing') => ({ type, payload: JSON.stringify(p) });
  const refused = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('UNPROCESSABLE');
      return (err as AppError).details;
    }
    throw new Error('not refused');
  };

  it('reads the lot, its crop and the quantity in a lot’s unit from a seed-sharing event naming the handoff', () => {
    expect(readHandoff(tx(payload), ID)).toEqual({
      seedLotId: payload.seedLotId,
      crop: 'Bean',
      variety: 'Borlotti',
      harvestYear: 2025,
      amount: 50,
      unit: 'grams',
    });
    const { variety: _, ...noVariety } = payload.handoffLot;
    expect(readHandoff(tx({ ...payload, handoffLot: noVariety }), ID).variety).toBeNull();
  });

  it('refuses another kind, another or no handoff id, no lot, no quantity, or a payload that is not JSON', () => {
    expect(refused(() => readHandoff(tx(payload, 'plant.register'), ID))).toEqual({ reason: 'not-a-handoff' });
    refused(() => readHandoff(tx(payload), ID.replace('34', '35')));
    refused(() => readHandoff(tx({ ...payload, handoffId: undefined }), ID));
    refused(() => readHandoff(tx({ ...payload, handoffLot: undefined }), ID));
    refused(() => readHandoff(tx({ ...payload, seedLotId: null }), ID));
    refused(() => readHandoff(tx({ ...payload, quantity: null }), ID));
    refused(() => readHandoff(tx({ ...payload, quantity: { value: 5, unit: 'kg' } }), ID));
    refused(() => readHandoff({ type: 'transport.seed-sharing', payload: '{' }, ID));
  });

  it('maps journey units back to a lot’s', () => {
    expect(lotUnitOf('g')).toBe('grams');
    expect(lotUnitOf('seeds')).toBe('seeds');
    expect(lotUnitOf('packets')).toBe('packets');
    expect(lotUnitOf('grams')).toBeNull();
    expect(lotUnitOf('kg')).toBeNull();
  });
});

describe('handoff views', () => {
  const row: StoredHandoff = {
    handoffId: ID,
    direction: 'incoming',
    peer: 'north-farm',
    seedLotId: 'lot_A',
    amount: 50,
    unit: 'seeds',
    recipient: 'usr_a',
    eventId: 'tev_A',
    transactionId: 'tx_A',
    peerUrl: 'https://north.example',
    remoteSeedLotId: 'lot_B',
    remoteTransactionId: 'tx_B',
    blockHash: 'b'.repeat(64),
    bundleDigest: 'd'.repeat(64),
    checkpointSize: 12,
    checkpointRoot: 'r'.repeat(64),
    verifiedAt: '2026-11-29T10:00:00Z',
    createdAt: '2026-11-29T10:00:01Z',
  };

  it('an incoming one names the peer’s lot and the proof; an outgoing one has no source', () => {
    expect(handoffView(row)).toEqual({
      id: ID,
      direction: 'incoming',
      seedLotId: 'lot_A',
      peer: 'north-farm',
      quantity: { amount: 50, unit: 'seeds' },
      recipient: 'usr_a',
      eventId: 'tev_A',
      transactionId: 'tx_A',
      source: {
        peer: 'north-farm',
        url: 'https://north.example',
        seedLotId: 'lot_B',
        handoffId: ID,
        transactionId: 'tx_B',
        blockHash: 'b'.repeat(64),
        bundleDigest: 'd'.repeat(64),
        checkpoint: { treeSize: 12, rootHash: 'r'.repeat(64) },
        verifiedAt: '2026-11-29T10:00:00.000Z',
      },
      createdAt: '2026-11-29T10:00:01.000Z',
    });
    expect(handoffSource({ ...row, direction: 'outgoing' })).toBeNull();
  });
});
