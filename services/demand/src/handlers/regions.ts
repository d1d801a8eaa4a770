import { AppError, type Region } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { boundingBox, haversineKm, type Point } from '@rootline/domain';
import { type PreferenceRow, preferencesIn } from '../db/preferences.repo.js';
import { type SupplyRow, suppliesIn } from '../db/supply.repo.js';
import { parseDate } from '../domain/calendar.js';
import type { DemandItem, Household, SupplyWindow } from '../domain/demand.js';
import { gridCell, LOCATION_PRECISION_KM, snapRadiusKm } from '../domain/location-precision.js';
import { countedHousehold } from '../domain/privacy.js';
import type { Area } from '../domain/published-demand.js';

/** A stored preference as the demand model reads it. */
export function household(r: PreferenceRow): Household {
  return {
    consumerId: r.consumerId,
    latitude: r.latitude,
    longitude: r.longitude,
    radiusKm: r.radiusKm,
    items: r.items as DemandItem[],
  };
}

/** The households of stored preferences that aggregates at `now` count (domain/privacy.ts, countedHousehold). */
export function countedHouseholds(rows: readonly PreferenceRow[], now: Date): Household[] {
  return rows.flatMap((r) => {
    const h = countedHousehold(
      {
        ...household(r),
        countedFrom: new Date(r.countedFrom),
        itemsWeek: r.itemsWeek,
        priorItems: r.priorItems as DemandItem[] | null,
      },
      now,
    );
    return h ? [h] : [];
  });
}

/** A stored supply as the demand model reads it (all its committed kilograms). */
export function supplyWindow(s: SupplyRow): SupplyWindow {
  return {
    crop: s.crop,
    quantityKg: s.quantityKg,
    from: parseDate(s.windowFrom) as Date,
    to: parseDate(s.windowTo) as Date,
    latitude: s.latitude,
    longitude: s.longitude,
  };
}

/** The key under which a region by name keeps its demand history: `COUNTRY` or `COUNTRY/city`. */
export function regionKey(country: string, city?: string): string {
  const c = country.trim().toUpperCase();
  return city === undefined ? c : `${c}/${city.trim().toLowerCase()}`;
}

/**
 * The region of a point and radius at the published precision: the cells whose centres lie within the radius
 * (rounded up to LOCATION_PRECISION_KM) of the centre of the point's cell, with the households counted at `now`
 * living in them and the supplies (window meeting [from, to]) placed in them. Which households and supplies are in
 * depends on their cells only.
 */
export async function nearby(db: Db, center: Point, radiusKm: number, from: string, to: string, now: Date) {
  const origin = gridCell(center);
  const reach = snapRadiusKm(radiusKm);
  // A cell's centre within reach may hold points up to a cell's half-diagonal farther.
  const box = boundingBox(origin, reach + LOCATION_PRECISION_KM);
  const [prefs, sups] = await Promise.all([preferencesIn(db, box), suppliesIn(db, box, from, to)]);
  const inside = <T extends Point>(rows: T[]) => rows.filter((r) => haversineKm(origin, gridCell(r)) <= reach + 1e-9);
  const households = countedHouseholds(inside(prefs), now);
  const areas = new Map<string, Area>();
  for (const h of households) {
    const cell = gridCell(h);
    const area = areas.get(cell.key) ?? { key: `cell:${cell.key}`, latitude: cell.latitude, households: [] };
    area.households.push(h);
    areas.set(cell.key, area);
  }
  return { households, supplies: inside(sups).map(supplyWindow), areas: [...areas.values()] };
}

/**
 * Households (counted at `now`) and supplies of a region, and the areas its published figures are the sum of: for
 * a point and radius its grid cells, for a country (and city) by name that one named area.
 */
export async function inRegion(db: Db, region: Region, from: string, to: string, now: Date) {
  if ('latitude' in region) return nearby(db, region, region.radiusKm ?? 50, from, to, now);
  const [prefs, sups] = await Promise.all([preferencesIn(db, region), suppliesIn(db, region, from, to)]);
  const households = countedHouseholds(prefs, now);
  const areas: Area[] = [
    {
      key: `name:${regionKey(region.country, region.city)}`,
      latitude: households[0]?.latitude ?? 45,
      households,
    },
  ];
  return { households, supplies: sups.map(supplyWindow), areas };
}

/** A `YYYY-MM-DD` field that must be a real date: 400 naming the field otherwise. */
export function dateField(value: string, field: string): Date {
  const d = parseDate(value);
  if (!d)
    throw new AppError('VALIDATION_ERROR', `${field} is not a real date`, [
      { field, message: 'is not a real date', reason: 'invalid-date' },
    ]);
  return d;
}
