import type { BuyerOffer, ListingStatus, Offer, OfferRejectionReason, OfferStatus } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, count, desc, eq, gt, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import { listings, offers } from './schema.js';

export type OfferRow = typeof offers.$inferSelect;

export function offerView(r: OfferRow): Offer {
  return {
    id: r.id,
    listingId: r.listingId,
    buyerId: r.buyerId,
    sellerId: r.sellerId,
    quantity: r.quantity,
    price: r.price,
    counterPrice: r.counterPrice,
    currency: r.currency,
    message: r.message,
    status: r.status as OfferStatus,
    rejectionReason: r.rejectionReason as OfferRejectionReason | null,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}

export async function insertOffer(db: Db, row: typeof offers.$inferInsert): Promise<OfferRow> {
  const [created] = await db.insert(offers).values(row).returning();
  return created as OfferRow;
}

export async function findOffer(db: Db, id: string, lock = false): Promise<OfferRow | undefined> {
  const q = db.select().from(offers).where(eq(offers.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function updateOffer(db: Db, id: string, change: Partial<OfferRow>): Promise<OfferRow> {
  const [row] = await db.update(offers).set(change).where(eq(offers.id, id)).returning();
  return row as OfferRow;
}

/**
 * Rejects, for `reason`, the open offers on a listing, other than `keepId`, that ask for more than `remaining` units
 * (all of them when nothing remains), and returns them.
 */
export async function rejectImpossibleOffers(
  db: Db,
  listingId: string,
  keepId: string,
  remaining: number,
  at: string,
  reason: OfferRejectionReason,
): Promise<OfferRow[]> {
  return db
    .update(offers)
    .set({ status: 'rejected', rejectionReason: reason, updatedAt: at })
    .where(
      and(
        eq(offers.listingId, listingId),
        ne(offers.id, keepId),
        inArray(offers.status, ['pending', 'countered']),
        gt(offers.quantity, remaining),
      ),
    )
    .returning();
}

/** Rejects every open offer on a listing, for the reason it left active (cancelled or unpublished). */
export async function rejectOpenOffers(
  db: Db,
  listingId: string,
  at: string,
  reason: OfferRejectionReason,
): Promise<OfferRow[]> {
  return rejectImpossibleOffers(db, listingId, '', -1, at, reason);
}

/** A page of the offers on a listing, oldest first; `buyerId` narrows them to one buyer's. */
export async function listOffers(
  db: Db,
  listingId: string,
  buyerId: string | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: OfferRow[]; total: number }> {
  const cond: SQL | undefined = and(
    eq(offers.listingId, listingId),
    buyerId === undefined ? undefined : or(eq(offers.buyerId, buyerId)),
  );
  const [rows, [counted]] = await Promise.all([
    db.select().from(offers).where(cond).orderBy(asc(offers.createdAt), asc(offers.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(offers).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

const listingSummary = {
  id: listings.id,
  title: listings.title,
  price: listings.price,
  currency: listings.currency,
  quantity: listings.quantity,
  status: listings.status,
};

/** A buyer's offer with the listing it was made on, as it is now. */
export interface BuyerOfferRow {
  offer: OfferRow;
  listing: Pick<typeof listings.$inferSelect, keyof typeof listingSummary>;
}

export function buyerOfferView(r: BuyerOfferRow): BuyerOffer {
  return { ...offerView(r.offer), listing: { ...r.listing, status: r.listing.status as ListingStatus } };
}

/** A page of one buyer's offers (optionally of one status) with their listings, newest first. */
export async function listBuyerOffers(
  db: Db,
  buyerId: string,
  status: OfferStatus | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: BuyerOfferRow[]; total: number }> {
  const cond = and(eq(offers.buyerId, buyerId), status === undefined ? undefined : eq(offers.status, status));
  const [rows, [counted]] = await Promise.all([
    db
      .select({ offer: offers, listing: listingSummary })
      .from(offers)
      .innerJoin(listings, eq(listings.id, offers.listingId))
      .where(cond)
      .orderBy(desc(offers.createdAt), desc(offers.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(offers).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/** Records the buyer's review unless one exists (two at once: one wins); false when one already did. */
export async function reviewOnce(db: Db, id: string, rating: number, review: string): Promise<boolean> {
  const rows = await db
    .update(offers)
    .set({ rating, review })
    .where(and(eq(offers.id, id), isNull(offers.rating)))
    .returning({ id: offers.id });
  return rows.length === 1;
}
