import { LISTING_STATUSES } from '@rootline/contracts/marketplace';
import { describe, expect, it } from 'vitest';
import { editable, refusedMove } from './listing-state.js';

describe('listing state machine', () => {
  it.each([
    ['draft', 'active'],
    ['draft', 'cancelled'],
    ['active', 'draft'],
    ['active', 'cancelled'],
  ] as const)('allows %s → %s on request', (from, to) => {
    expect(refusedMove(from, to)).toBeUndefined();
  });

  it('allows active → sold only through a sale', () => {
    expect(refusedMove('active', 'sold', false)).toBeUndefined();
    expect(refusedMove('active', 'sold')).toMatch(/only when an offer takes its last unit/);
    expect(refusedMove('draft', 'sold', false)).toBe('A draft listing cannot move to sold');
  });

  it('keeps sold and cancelled final', () => {
    for (const from of ['sold', 'cancelled'] as const) {
      for (const to of LISTING_STATUSES.filter((s) => s !== from)) {
        expect(refusedMove(from, to)).toBe(`A ${from} listing cannot move to ${to} (${from} is final)`);
      }
    }
  });

  it('refuses a move to the same state', () => {
    expect(refusedMove('active', 'active')).toBe('The listing is already active');
  });

  it('lets only draft and active listings be edited', () => {
    expect(LISTING_STATUSES.filter(editable)).toEqual(['draft', 'active']);
  });
});
