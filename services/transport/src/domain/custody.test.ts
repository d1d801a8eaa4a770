import { describe, expect, it } from 'vitest';
import { assertCustodian, assertMayCorrect, handoffRefusal, isCustodian, mayReadNotes } from './custody.js';

const alice = { id: 'usr_alice', role: 'USER' as const };
const bob = { id: 'usr_bob', role: 'USER' as const };
const admin = { id: 'usr_admin', role: 'ADMIN' as const };

describe('custody rules', () => {
  it('lets only the handler of an event, or an ADMIN, correct it', () => {
    expect(() => assertMayCorrect(alice, { handlerId: 'usr_alice' })).not.toThrow();
    expect(() => assertMayCorrect(admin, { handlerId: 'usr_alice' })).not.toThrow();
    expect(() => assertMayCorrect(bob, { handlerId: 'usr_alice' })).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', details: { field: 'corrects', reason: 'not-handler' } }),
    );
  });

  it('makes the owner and the recorded custodians custodians, nobody else; an ADMIN records for anyone', () => {
    const plant = { field: 'plantId' as const, id: 'plt_1', ownerId: 'usr_alice', custodians: ['usr_bob'] };
    expect(isCustodian('usr_alice', plant)).toBe(true);
    expect(isCustodian('usr_bob', plant)).toBe(true);
    expect(isCustodian('usr_carol', plant)).toBe(false);
    const lot = { field: 'seedLotId' as const, id: 'lot_a-1', custodians: ['usr_alice'] };
    expect(() => assertCustodian(alice, 'usr_alice', lot)).not.toThrow();
    expect(() => assertCustodian(bob, 'usr_bob', lot)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', details: { field: 'seedLotId', reason: 'not-custodian' } }),
    );
    expect(() => assertCustodian(admin, 'usr_bob', lot)).not.toThrow();
  });

  it('lets only the named recipient accept a distribution or seed-sharing event', () => {
    const handoff = { id: 'tev_1', kind: 'distribution', recipientId: 'usr_bob' };
    expect(handoffRefusal('usr_bob', handoff)).toBeUndefined();
    expect(handoffRefusal('usr_carol', handoff)?.code).toBe('FORBIDDEN');
    expect(handoffRefusal('usr_admin', handoff)?.code).toBe('FORBIDDEN');
    expect(handoffRefusal('usr_bob', { ...handoff, recipientId: null })?.code).toBe('NOT_FOUND');
    expect(handoffRefusal('usr_bob', { ...handoff, kind: 'harvest' })?.code).toBe('NOT_FOUND');
    expect(handoffRefusal('usr_bob', { ...handoff, kind: 'seed-sharing' })).toBeUndefined();
  });

  it('shows notes to the handler, the recipient, the plant owner and an ADMIN only', () => {
    const event = { handlerId: 'usr_bob', recipientId: 'usr_dan' };
    expect(mayReadNotes(bob, event, 'usr_alice')).toBe(true);
    expect(mayReadNotes({ id: 'usr_dan', role: 'USER' }, event, 'usr_alice')).toBe(true);
    expect(mayReadNotes(alice, event, 'usr_alice')).toBe(true);
    expect(mayReadNotes(admin, event, undefined)).toBe(true);
    expect(mayReadNotes({ id: 'usr_carol', role: 'USER' }, event, 'usr_alice')).toBe(false);
    expect(mayReadNotes(undefined, event, 'usr_alice')).toBe(false);
  });
});
