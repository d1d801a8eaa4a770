import type { ListingCategory } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, count, desc, eq } from 'drizzle-orm';
import { wishlist } from './schema.js';

export type WishlistRow = typeof wishlist.$inferSelect;

export function wishlistView(r: WishlistRow) {
  return {
    id: r.id,
    userId: r.userId,
    q: r.q,
    category: r.category as ListingCategory | null,
    crop: r.crop,
    maxPrice: r.maxPrice,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

export async function insertWishlistItem(db: Db, row: WishlistRow): Promise<WishlistRow> {
  const [created] = await db.insert(wishlist).values(row).onConflictDoNothing().returning();
  return created ?? row;
}

export async function userWishlist(db: Db, userId: string, offset: number, limit: number) {
  const cond = eq(wishlist.userId, userId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(wishlist)
      .where(cond)
      .orderBy(desc(wishlist.createdAt), desc(wishlist.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(wishlist).where(cond),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

export async function findWishlistItem(db: Db, id: string): Promise<WishlistRow | undefined> {
  const [row] = await db.select().from(wishlist).where(eq(wishlist.id, id));
  return row;
}

export async function deleteWishlistItem(db: Db, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(wishlist)
    .where(and(eq(wishlist.id, id), eq(wishlist.userId, userId)))
    .returning({ id: wishlist.id });
  return rows.length === 1;
}
