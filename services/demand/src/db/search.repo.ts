import { type Db, executeRows } from '@rootline/db';
import { boundingBox, EARTH_RADIUS_KM, type Point, RAD } from '@rootline/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { ListingRow } from './listings.repo.js';

const f8 = (v: number) => sql`${v}::float8`;

/** Haversine in SQL, term for term as `haversineKm` computes it (as plants' nearby query does). */
function distanceSql(center: Point): SQL {
  const p1 = center.latitude * RAD;
  const l1 = center.longitude * RAD;
  const sLat = sql`sin((latitude * ${f8(RAD)} - ${f8(p1)}) / 2)`;
  const sLon = sql`sin((longitude * ${f8(RAD)} - ${f8(l1)}) / 2)`;
  return sql`(${f8(2 * EARTH_RADIUS_KM)} * asin(least(1::float8, sqrt(${sLat} * ${sLat} + ${f8(Math.cos(p1))} * cos(latitude * ${f8(RAD)}) * ${sLon} * ${sLon}))))`;
}

export interface ListingSearch {
  /** Normalised words, each found as a substring of the listing's normalised title and description. */
  words: string[];
  category?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  near?: { center: Point; radiusKm: number } | undefined;
  /** Listings of this seller are left out (recommendations). */
  excludeSeller?: string | undefined;
  offset: number;
  limit: number;
}

export type ListingSearchRow = ListingRow & { distanceKm: number | null; total: number };

const COLUMNS = sql.raw(`id, seller_id as "sellerId", title, description, category, crop, plant_id as "plantId",
  lineage, price, currency, quantity, latitude, longitude, city, country, privacy_level as "privacyLevel",
  image_file_ids as "imageFileIds", status, created_at as "createdAt", updated_at as "updatedAt",
  geo_band as "geoBand", search_text as "searchText"`);

/**
 * Active listings matching every word (trigram index on `search_text`), the category and price range and, with a
 * centre, within the radius (latitude-band index of ADR 008 over the circle's bounding box, then the exact
 * haversine): nearest first with a centre, newest first without. Both indexes are partial on active listings.
 * The count comes from the same matches (`count(*) over ()`).
 */
export async function searchListings(db: Db, s: ListingSearch): Promise<{ rows: ListingSearchRow[]; total: number }> {
  const where: SQL[] = [sql`status = 'active'`];
  for (const w of s.words) where.push(sql`search_text like ${`%${w}%`}`);
  if (s.category) where.push(sql`category = ${s.category}`);
  if (s.minPrice !== undefined) where.push(sql`price >= ${s.minPrice}`);
  if (s.maxPrice !== undefined) where.push(sql`price <= ${s.maxPrice}`);
  if (s.excludeSeller) where.push(sql`seller_id <> ${s.excludeSeller}`);
  let distance: SQL = sql`null::float8`;
  if (s.near) {
    const box = boundingBox(s.near.center, s.near.radiusKm);
    const lon = sql.join(
      box.lonRanges.map(([w, e]) => sql`longitude between ${f8(w)} and ${f8(e)}`),
      sql` or `,
    );
    const bands = sql`${`{${box.bands.join(',')}}`}::integer[]`;
    where.push(sql`geo_band = any(${bands}) and (${lon})`);
    where.push(sql`latitude between ${f8(box.minLat)} and ${f8(box.maxLat)}`);
    distance = distanceSql(s.near.center);
    where.push(sql`${distance} <= ${f8(s.near.radiusKm)}`);
  }
  const order = s.near ? sql`distance_km, id` : sql`created_at desc, id desc`;
  const rows = await executeRows<ListingSearchRow>(
    db,
    sql`select ${COLUMNS}, ${distance} as distance_km, count(*) over () as total
      from demand.listings where ${sql.join(where, sql` and `)}
      order by ${order} limit ${s.limit} offset ${s.offset}`,
  );
  const total = rows.length > 0 ? Number(rows[0]?.total) : s.offset > 0 ? await countOnly(db, where) : 0;
  return {
    rows: rows.map((r) => ({ ...r, distanceKm: (r as { distance_km?: number | null }).distance_km ?? null })),
    total,
  };
}

/** The count alone, for a page past the last match. */
async function countOnly(db: Db, where: SQL[]): Promise<number> {
  const [row] = await executeRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from demand.listings where ${sql.join(where, sql` and `)}`,
  );
  return row?.n ?? 0;
}
