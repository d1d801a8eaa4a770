import { describe, expect, it } from 'vitest';
import {
  actAsHeaderOf,
  classify,
  counts,
  DEPENDENCY_REFUSED,
  forgettable,
  inOrder,
  localRef,
  nextSeq,
  nextStep,
  type OutboxItem,
  SENT_KEPT_MS,
} from './order';

const item = (id: string, seq: number, over: Partial<OutboxItem> = {}): OutboxItem => ({
  id,
  account: 'usr_a',
  seq,
  createdAt: `2026-11-29T06:00:0${seq % 10}.000Z`,
  kind: 'reading',
  plantName: 'Tomato',
  plantId: 'plt_1',
  body: {},
  state: 'waiting',
  attempts: 0,
  ...over,
});

describe('inOrder and nextSeq', () => {
  it('lists one account’s items by their place in the queue, and puts a new one after them all', () => {
    const items = [item('c', 3), item('a', 1), item('x', 9, { account: 'usr_b' }), item('b', 2)];
    expect(inOrder(items, 'usr_a').map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(nextSeq(items, 'usr_a')).toBe(4);
    expect(nextSeq(items, 'usr_b')).toBe(10);
    expect(nextSeq(items, 'usr_c')).toBe(1);
  });
});

describe('nextStep', () => {
  it('sends the oldest waiting write of the account, past the sent and refused ones', () => {
    const items = [
      item('a', 1, { state: 'sent', result: { id: 'env_1', plantId: 'plt_1', data: {} } }),
      item('b', 2, { state: 'refused' }),
      item('c', 3),
      item('d', 4),
      item('z', 0, { account: 'usr_b' }),
    ];
    expect(nextStep(items, 'usr_a')).toEqual({ action: 'send', item: items[2], plantId: 'plt_1' });
  });

  it('is null when nothing waits for the account, whatever waits for another', () => {
    expect(nextStep([item('a', 1, { account: 'usr_b' })], 'usr_a')).toBeNull();
    expect(nextStep([item('a', 1, { state: 'sent' })], 'usr_a')).toBeNull();
  });

  it('sends a write about a plant registered offline with the id that plant got', () => {
    const plant = item('p', 1, {
      kind: 'plant',
      plantId: '',
      state: 'sent',
      result: { id: 'plt_new', plantId: 'plt_new', data: {} },
    });
    const photo = item('f', 2, { kind: 'photo', plantId: localRef('p') });
    expect(nextStep([plant, photo], 'usr_a')).toEqual({ action: 'send', item: photo, plantId: 'plt_new' });
  });

  it('sends the plant first when it still waits', () => {
    const plant = item('p', 1, { kind: 'plant', plantId: '' });
    const event = item('e', 2, { kind: 'event', plantId: localRef('p') });
    expect(nextStep([event, plant], 'usr_a')).toEqual({ action: 'send', item: plant, plantId: '' });
  });

  it('refuses a write whose plant was refused or discarded, saying why, and goes on after it', () => {
    const plant = item('p', 1, { kind: 'plant', plantId: '', state: 'refused' });
    const reading = item('r', 2, { plantId: localRef('p') });
    const later = item('l', 3);
    const refused = nextStep([plant, reading, later], 'usr_a');
    expect(refused).toMatchObject({
      action: 'refuse',
      item: reading,
      refusal: { code: DEPENDENCY_REFUSED, message: 'The plant it is about was not registered.' },
    });
    const discarded = nextStep([reading, later], 'usr_a');
    expect(discarded).toMatchObject({ action: 'refuse', refusal: { message: 'The plant it is about was discarded.' } });
    const afterIt = nextStep([plant, { ...reading, state: 'refused' }, later], 'usr_a');
    expect(afterIt).toEqual({ action: 'send', item: later, plantId: 'plt_1' });
  });
});

describe('classify', () => {
  it('keeps a write whose outcome is unknown, and resends it with its key', () => {
    expect(classify({ network: true })).toBe('retry');
    for (const status of [500, 502, 503, 504, 408, 425, 429]) expect(classify({ status })).toBe('retry');
    expect(
      classify({ status: 409, code: 'DUPLICATE', message: 'A request with this Idempotency-Key is in progress' }),
    ).toBe('retry');
  });

  it('settles a write the API answered', () => {
    expect(classify({ status: 201 })).toBe('sent');
    expect(classify({ status: 200 })).toBe('sent');
    expect(classify({ status: 400, code: 'VALIDATION_ERROR' })).toBe('refused');
    expect(classify({ status: 403, code: 'FORBIDDEN' })).toBe('refused');
    expect(classify({ status: 404, code: 'NOT_FOUND' })).toBe('refused');
    expect(classify({ status: 409, code: 'CHAIN_ERROR', message: 'the chain moved on' })).toBe('refused');
    expect(classify({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' })).toBe('refused');
  });

  it('waits for its account to sign in again on a 401', () => {
    expect(classify({ status: 401, code: 'UNAUTHORIZED' })).toBe('signed-out');
  });
});

describe('forgettable and counts', () => {
  const now = new Date('2026-11-30T12:00:00.000Z');
  const old = new Date(now.getTime() - SENT_KEPT_MS - 1000).toISOString();
  const fresh = new Date(now.getTime() - 1000).toISOString();

  it('forgets sent items after a day, unless a waiting write still needs their plant’s id', () => {
    const sentOld = item('a', 1, { state: 'sent', settledAt: old });
    const sentFresh = item('b', 2, { state: 'sent', settledAt: fresh });
    const needed = item('c', 3, { kind: 'plant', state: 'sent', settledAt: old });
    const waiting = item('d', 4, { plantId: localRef('c') });
    const refusedOld = item('e', 5, { state: 'refused', settledAt: old });
    expect(forgettable([sentOld, sentFresh, needed, waiting, refusedOld], now).map((i) => i.id)).toEqual(['a']);
  });

  it('counts the waiting and refused writes of one account', () => {
    const items = [
      item('a', 1),
      item('b', 2),
      item('c', 3, { state: 'refused' }),
      item('d', 4, { state: 'sent' }),
      item('e', 5, { account: 'usr_b' }),
    ];
    expect(counts(items, 'usr_a')).toEqual({ waiting: 2, refused: 1 });
    expect(counts(items, 'usr_c')).toEqual({ waiting: 0, refused: 0 });
  });
});

describe('actAsHeaderOf', () => {
  it('sends a write for the organization the tab acted for when it was kept, or alone, whatever the tab acts for now', () => {
    expect(actAsHeaderOf(item('a', 1, { actAs: 'org_riverside0001' }))).toBe('org_riverside0001');
    // Kept while acting alone: the header goes empty, which the SDK sends as no header (the account alone).
    expect(actAsHeaderOf(item('b', 2, { actAs: null }))).toBe('');
    // Kept before the organization was recorded: sent as the tab acts then.
    expect(actAsHeaderOf(item('c', 3))).toBeUndefined();
  });
});
