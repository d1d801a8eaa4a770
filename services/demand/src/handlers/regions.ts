import { AppError, type Region } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { boundingBox, haversineKm, type Point } from '@rootline/domain';
import { type PreferenceRow, preferencesIn } from '../db/preferences.repo.js';
import { type SupplyRow, suppliesIn } from '../db/supply.repo.js';
import { parseDate } from '../domain/calendar.js';
import type { DemandItem, Household, SupplyWindow } from '../domain/demand.js';

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

/** Households and supplies (window meeting [from, to]) within a point's radius. */
export async function nearby(db: Db, center: Point, radiusKm: number, from: string, to: string) {
  const box = boundingBox(center, radiusKm);
  const [prefs, sups] = await Promise.all([preferencesIn(db, box), suppliesIn(db, box, from, to)]);
  const near = <T extends Point>(rows: T[]) => rows.filter((r) => haversineKm(center, r) <= radiusKm);
  return { households: near(prefs).map(household), supplies: near(sups).map(supplyWindow) };
}

/** Households and supplies of a region: a point and radius, or a country (and city) by name. */
export async function inRegion(db: Db, region: Region, from: string, to: string) {
  if ('latitude' in region) return nearby(db, region, region.radiusKm ?? 50, from, to);
  const [prefs, sups] = await Promise.all([preferencesIn(db, region), suppliesIn(db, region, from, to)]);
  return { households: prefs.map(household), supplies: sups.map(supplyWindow) };
}

/** A `YYYY-MM-DD` field that must be a real date: 400 naming the field otherwise. */
export function dateField(value: string, field: string): Date {
  const d = parseDate(value);
  if (!d)
    throw new AppError('VALIDATION_ERROR', `${field} is not a real date`, [{ field, message: 'is not a real date' }]);
  return d;
}
