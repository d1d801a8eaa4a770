import type { Preference } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, between, count, eq, sql } from 'drizzle-orm';
import { preferences } from './schema.js';

export type PreferenceRow = typeof preferences.$inferSelect;

export function preferenceView(r: PreferenceRow): Preference {
  return {
    id: r.id,
    consumerId: r.consumerId,
    location: {
      latitude: r.latitude,
      longitude: r.longitude,
      ...(r.city === null ? {} : { city: r.city }),
      ...(r.country === null ? {} : { country: r.country }),
    },
    radiusKm: r.radiusKm,
    householdSize: r.householdSize,
    items: r.items as Preference['items'],
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}

/** Stores a consumer's preferences, replacing the ones they had (one row per consumer). */
export async function upsertPreference(db: Db, row: PreferenceRow): Promise<PreferenceRow> {
  const { id: _id, consumerId: _c, ...change } = row;
  const [saved] = await db
    .insert(preferences)
    .values(row)
    .onConflictDoUpdate({ target: preferences.consumerId, set: change })
    .returning();
  return saved as PreferenceRow;
}

export async function findPreference(db: Db, consumerId: string): Promise<PreferenceRow | undefined> {
  const [row] = await db.select().from(preferences).where(eq(preferences.consumerId, consumerId));
  return row;
}

/** A page of preferences, one consumer's (`consumerId`) or everyone's, by consumer id. */
export async function listPreferences(db: Db, consumerId: string | undefined, offset: number, limit: number) {
  const cond = consumerId === undefined ? undefined : eq(preferences.consumerId, consumerId);
  const [rows, [counted]] = await Promise.all([
    db.select().from(preferences).where(cond).orderBy(asc(preferences.consumerId)).limit(limit).offset(offset),
    db.select({ n: count() }).from(preferences).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/**
 * Preferences whose household lies in the latitude range (a bounding box's; the caller keeps those within the
 * exact distance) or, for a region by name, whose country (and city) match without regard to case.
 */
export async function preferencesIn(
  db: Db,
  region: { minLat: number; maxLat: number } | { country: string; city?: string | undefined },
): Promise<PreferenceRow[]> {
  if ('minLat' in region) {
    return db
      .select()
      .from(preferences)
      .where(between(preferences.latitude, region.minLat, region.maxLat));
  }
  return db
    .select()
    .from(preferences)
    .where(
      and(
        sql`upper(trim(${preferences.country})) = ${region.country.trim().toUpperCase()}`,
        region.city === undefined
          ? undefined
          : sql`lower(trim(${preferences.city})) = ${region.city.trim().toLowerCase()}`,
      ),
    );
}

/**
 * Sets when households settled where they are, with the items they have (an import from another system): they count
 * in aggregates HOUSEHOLD_MIN_AGE_DAYS after `countedFrom`, their items from the week after `itemsWeek`. Answers the
 * consumers that have preferences to settle.
 */
export async function settleHouseholds(
  db: Db,
  rows: readonly { consumerId: string; countedFrom: string; itemsWeek: string }[],
): Promise<string[]> {
  const settled: string[] = [];
  for (const r of rows) {
    const done = await db
      .update(preferences)
      .set({ countedFrom: r.countedFrom, itemsWeek: r.itemsWeek, priorItems: null })
      .where(eq(preferences.consumerId, r.consumerId))
      .returning({ consumerId: preferences.consumerId });
    if (done.length > 0) settled.push(r.consumerId);
  }
  return settled;
}
