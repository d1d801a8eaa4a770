import type { ListingInput } from '@rootline/contracts';

let seq = 0;

/** A valid listing body (active produce near Amsterdam); pass overrides for the fields a test cares about. */
export function listingInput(overrides: Partial<ListingInput> = {}): ListingInput {
  seq += 1;
  return {
    title: `Heirloom tomatoes ${seq}`,
    description: 'Ripe, organic, picked this morning',
    category: 'produce',
    crop: 'tomato',
    price: 400,
    currency: 'EUR',
    quantity: 5,
    location: { latitude: 52.37, longitude: 4.89, city: 'Amsterdam', country: 'NL' },
    privacyLevel: 'exact',
    ...overrides,
  };
}
