import type { Listing, ListingStatus } from '@rootline/contracts';
import { type Db, executeRows } from '@rootline/db';
import { and, asc, count, desc, eq, gte, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { listings } from './schema.js';

export type ListingRow = typeof listings.$inferSelect;
export type NewListing = Omit<typeof listings.$inferInsert, 'geoBand'>;

/** The listing as the API shows it. */
export function listingView(r: ListingRow): Listing {
  const location =
    r.latitude === null || r.longitude === null
      ? null
      : {
          latitude: r.latitude,
          longitude: r.longitude,
          ...(r.city === null ? {} : { city: r.city }),
          ...(r.country === null ? {} : { country: r.country }),
        };
  return {
    id: r.id,
    sellerId: r.sellerId,
    title: r.title,
    description: r.description,
    category: r.category as Listing['category'],
    crop: r.crop,
    plantId: r.plantId,
    lineage: (r.lineage as Listing['lineage']) ?? null,
    price: r.price,
    currency: r.currency,
    quantity: r.quantity,
    location,
    privacyLevel: r.privacyLevel as Listing['privacyLevel'],
    imageFileIds: r.imageFileIds as string[],
    status: r.status as ListingStatus,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}

export async function insertListing(db: Db, row: NewListing): Promise<ListingRow> {
  const [created] = await db.insert(listings).values(row).returning();
  return created as ListingRow;
}

export async function findListing(db: Db, id: string, lock = false): Promise<ListingRow | undefined> {
  const q = db.select().from(listings).where(eq(listings.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function updateListing(db: Db, id: string, change: Partial<NewListing>): Promise<ListingRow> {
  const [row] = await db.update(listings).set(change).where(eq(listings.id, id)).returning();
  return row as ListingRow;
}

export interface ListingFilter {
  status?: ListingStatus | undefined;
  category?: string | undefined;
  sellerId?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  sort: 'newest' | 'price-asc' | 'price-desc';
  /** The caller; drafts are shown only to their seller (and to an ADMIN, `viewer` undefined). */
  viewer: string | undefined;
  offset: number;
  limit: number;
}

/** One page of listings matching the filter and how many match in all. */
export async function listListings(db: Db, f: ListingFilter): Promise<{ rows: ListingRow[]; total: number }> {
  const where: (SQL | undefined)[] = [
    f.status ? eq(listings.status, f.status) : f.sellerId ? undefined : eq(listings.status, 'active'),
    f.category ? eq(listings.category, f.category) : undefined,
    f.sellerId ? eq(listings.sellerId, f.sellerId) : undefined,
    f.minPrice === undefined ? undefined : gte(listings.price, f.minPrice),
    f.maxPrice === undefined ? undefined : lte(listings.price, f.maxPrice),
    f.viewer === undefined ? undefined : or(ne(listings.status, 'draft'), eq(listings.sellerId, f.viewer)),
  ];
  const cond = and(...where);
  const order =
    f.sort === 'price-asc'
      ? [asc(listings.price), asc(listings.id)]
      : f.sort === 'price-desc'
        ? [desc(listings.price), asc(listings.id)]
        : [desc(listings.createdAt), desc(listings.id)];
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(listings)
      .where(cond)
      .orderBy(...order)
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: count() }).from(listings).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/** Seller figures for the public profile. */
export async function sellerFigures(
  db: Db,
  sellerId: string,
): Promise<{
  activeListings: number;
  categories: string[];
  memberSince: string | null;
  completedSales: number;
  unitsSold: number;
  ratingAverage: number | null;
  ratingCount: number;
}> {
  const [row] = await executeRows<{
    active: number;
    categories: string[] | null;
    since: string | null;
    sales: number;
    units: number;
    avg: number | null;
    ratings: number;
  }>(
    db,
    sql`select
      (select count(*)::int from demand.listings where seller_id = ${sellerId} and status = 'active') as active,
      (select array_agg(distinct category order by category) from demand.listings
         where seller_id = ${sellerId} and status = 'active') as categories,
      (select min(created_at) from demand.listings where seller_id = ${sellerId}) as since,
      count(*)::int as sales, coalesce(sum(quantity), 0)::int as units,
      avg(rating)::float8 as avg, count(rating)::int as ratings
    from demand.offers where seller_id = ${sellerId} and status = 'accepted'`,
  );
  return {
    activeListings: row?.active ?? 0,
    categories: row?.categories ?? [],
    memberSince: row?.since ? new Date(row.since).toISOString() : null,
    completedSales: row?.sales ?? 0,
    unitsSold: row?.units ?? 0,
    ratingAverage: row?.avg ?? null,
    ratingCount: row?.ratings ?? 0,
  };
}

/** A listing that is not a draft and names `fileId` among its images, if any (its oldest). */
export async function publishedListingShowing(db: Db, fileId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(and(ne(listings.status, 'draft'), sql`${listings.imageFileIds} @> ${JSON.stringify([fileId])}::jsonb`))
    .orderBy(asc(listings.createdAt))
    .limit(1);
  return row?.id ?? null;
}
