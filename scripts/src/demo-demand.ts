import type { RootlineClient } from '@rootline/sdk';
import { DAY_MS, type DemoContext, mondayWeeksAgo, type Person, PLACES, type Place } from './demo-context.js';

/** Households per demand region: above the five a region needs (ADR 102), so its crops show through the noise. */
export const HOUSEHOLDS_PER_REGION = 6;
/** Weeks of demand history imported per crop and region, before this week. */
export const HISTORY_WEEKS = 10;

const NEIGHBOURS = ['Noor', 'Daan', 'Sanne', 'Milan', 'Fenna', 'Luuk', 'Isa', 'Bram'];
const CROPS = [
  { crop: 'lettuce', quantityPerWeek: 2, unit: 'piece', base: 9 },
  { crop: 'tomato', quantityPerWeek: 1.5, unit: 'kg', base: 8 },
  { crop: 'basil', quantityPerWeek: 1, unit: 'bunch', base: 3 },
] as const;

export interface DemandRegion {
  region: string;
  households: number;
  signalId: string | null;
  consumers: number | null;
}

/** A household's preferences, a little different for each. */
function preferences(place: Place, i: number) {
  return {
    location: PLACES[place],
    householdSize: 1 + (i % 4),
    radiusKm: 20,
    items: CROPS.map((c) => ({
      crop: c.crop,
      quantityPerWeek: c.quantityPerWeek + (i % 3) * 0.5,
      unit: c.unit,
      ...(i % 2 === 0 ? { maxPrice: c.crop === 'tomato' ? 450 : 300, currency: 'EUR' } : {}),
    })),
  };
}

/**
 * Demand regions (the cities of `residents`): each resident and enough neighbours state their preferences; with an
 * ADMIN, the households are imported as settled two months ago with ten weeks of past demand per crop (ADR 207), and
 * each region's signal is generated, so signals are not refused and forecasts have history.
 */
export async function fillDemand(
  c: DemoContext,
  residents: readonly { person: Person; place: Place }[],
  admin: RootlineClient | undefined,
): Promise<DemandRegion[]> {
  const households: { person: Person; place: Place }[] = [];
  let n = 0;
  for (const { person, place } of residents) {
    households.push({ person, place });
    for (let i = 1; i < HOUSEHOLDS_PER_REGION; i++) {
      const name = `${NEIGHBOURS[n % NEIGHBOURS.length]} ${PLACES[place].city}`;
      const local = `${NEIGHBOURS[n % NEIGHBOURS.length]?.toLowerCase()}-${place}`;
      households.push({ person: await c.person(name, local), place });
      n += 1;
    }
  }
  for (const [i, h] of households.entries()) {
    await c.ok(`saving ${h.person.name}'s preferences`, (headers) =>
      h.person.client.POST('/api/demand/preferences', { body: preferences(h.place, i), headers }),
    );
  }
  const regions = [...new Set(residents.map((r) => r.place))];
  c.step(`  ${households.length} households in ${regions.map((p) => PLACES[p].city).join(' and ')}`);
  if (!admin) {
    c.step('  Demand history left out: importing it needs an ADMIN (set ADMIN_EMAIL, ADMIN_PASSWORD)');
    return regions.map((p) => ({
      region: `NL/${PLACES[p].city.toLowerCase()}`,
      households: HOUSEHOLDS_PER_REGION,
      signalId: null,
      consumers: null,
    }));
  }
  // Ten weeks of demand per crop, rising towards now with a wobble, about what these households ask for.
  const history = regions.flatMap((place, r) =>
    CROPS.flatMap((crop, k) =>
      Array.from({ length: HISTORY_WEEKS }, (_, w) => ({
        crop: crop.crop,
        region: `NL/${PLACES[place].city}`,
        weekStart: mondayWeeksAgo(HISTORY_WEEKS - w),
        demandKg: Math.round((crop.base * (0.7 + (0.3 * w) / HISTORY_WEEKS) + Math.sin(w + r + k) * 1.2) * 10) / 10,
      })),
    ),
  );
  const imported = await c.ok('importing settled households and demand history', () =>
    admin.POST('/api/demand/import', {
      body: {
        households: households.map((h) => ({
          consumerId: h.person.id,
          settledSince: new Date(Date.now() - 60 * DAY_MS).toISOString(),
        })),
        history,
      },
    }),
  );
  c.step(`  ${imported.households} households settled, ${imported.weeks} weeks of history imported`);
  const out: DemandRegion[] = [];
  for (const place of regions) {
    const asker = residents.find((r) => r.place === place)?.person as Person;
    const signal = await c.ok(`the demand signal of ${PLACES[place].city}`, (headers) =>
      asker.client.POST('/api/demand/signal', {
        body: { region: { country: 'NL', city: PLACES[place].city }, horizonWeeks: 4 },
        headers,
      }),
    );
    out.push({
      region: `NL/${PLACES[place].city.toLowerCase()}`,
      households: HOUSEHOLDS_PER_REGION,
      signalId: signal.id,
      consumers: signal.consumers,
    });
    c.step(`  signal ${signal.id} for ${PLACES[place].city}: ${signal.consumers} households`);
  }
  return out;
}
