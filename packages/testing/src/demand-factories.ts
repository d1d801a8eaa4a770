import type { ListingInput } from '@rootline/contracts';
import postgres from 'postgres';

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

/**
 * Makes demand households settled, as if they had saved their preferences where they are 15 days ago and not
 * changed them this week, so they count in aggregates at once (the demand service counts a household 14 days after
 * it settles in its 5 km cell, and a change from the next week). No ids: every household of the database.
 */
export async function settleDemandHouseholds(databaseUrl: string, consumerIds: readonly string[] = []): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`update demand.preferences set counted_from = now() - interval '15 days', items_week = '2000-01-03',
      prior_items = null where ${consumerIds.length === 0 ? sql`true` : sql`consumer_id in ${sql(consumerIds)}`}`;
  } finally {
    await sql.end();
  }
}

/**
 * Records weekly demand history of a crop in a named region (`NL/amsterdam`), as weekly signals over past
 * publication weeks would have recorded it.
 */
export async function recordDemandHistory(
  databaseUrl: string,
  crop: string,
  regionKey: string,
  weeks: readonly { weekStart: string; demandKg: number }[],
): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    for (const [i, w] of weeks.entries()) {
      await sql`insert into demand.demand_history (crop, region_key, week_start, demand_kg, signal_id)
        values (${crop}, ${regionKey}, ${w.weekStart}, ${w.demandKg}, ${`sig_history_${i}`})
        on conflict (crop, region_key, week_start) do update set demand_kg = excluded.demand_kg`;
    }
  } finally {
    await sql.end();
  }
}
