import type { Actor } from '@rootline/contracts/roles';
import { describe, expect, it } from 'vitest';
import { agreedPrice, declineReason, listingLeftReason, offerRefusal } from './offers.js';

const buyer: Actor = { id: 'usr_buyer', role: 'USER' };
const seller: Actor = { id: 'usr_seller', role: 'GROWER' };
const stranger: Actor = { id: 'usr_other', role: 'USER' };
const admin: Actor = { id: 'usr_admin', role: 'ADMIN' };
const offer = (status: 'pending' | 'countered' | 'accepted') => ({
  buyerId: 'usr_buyer',
  sellerId: 'usr_seller',
  status,
});

describe('offer turns', () => {
  it('lets the seller answer a pending offer and the buyer a counter', () => {
    expect(offerRefusal(offer('pending'), 'accept', seller)).toBeUndefined();
    expect(offerRefusal(offer('pending'), 'accept', buyer)?.code).toBe('FORBIDDEN');
    expect(offerRefusal(offer('countered'), 'accept', buyer)).toBeUndefined();
    expect(offerRefusal(offer('countered'), 'reject', seller)?.code).toBe('FORBIDDEN');
    expect(offerRefusal(offer('countered'), 'counter', seller)).toBeUndefined();
  });

  it('lets only the buyer withdraw and refuses strangers', () => {
    expect(offerRefusal(offer('pending'), 'withdraw', buyer)).toBeUndefined();
    expect(offerRefusal(offer('pending'), 'withdraw', seller)?.code).toBe('FORBIDDEN');
    expect(offerRefusal(offer('pending'), 'accept', stranger)?.code).toBe('FORBIDDEN');
  });

  it('refuses any action on a closed offer with CONFLICT, and lets an ADMIN act', () => {
    expect(offerRefusal(offer('accepted'), 'withdraw', buyer)).toEqual({
      code: 'CONFLICT',
      message: 'The offer is already accepted',
    });
    expect(offerRefusal(offer('pending'), 'accept', admin)).toBeUndefined();
  });

  it('sells at the counter price when there is one', () => {
    expect(agreedPrice({ price: 300, counterPrice: null })).toBe(300);
    expect(agreedPrice({ price: 300, counterPrice: 350 })).toBe(350);
  });

  it('names who declined by whose turn it was, and how the listing left active', () => {
    expect(declineReason('pending')).toBe('declined');
    expect(declineReason('countered')).toBe('counter-declined');
    expect(listingLeftReason('cancelled')).toBe('listing-cancelled');
    expect(listingLeftReason('draft')).toBe('listing-unpublished');
  });
});
