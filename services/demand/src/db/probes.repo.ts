import type { Db } from '@rootline/db';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { matchRuns, supplies } from './schema.js';

export type MatchRunRow = typeof matchRuns.$inferSelect;

/** Supply commitments of a grower for a crop made after `since` (ISO time). */
export async function suppliesSince(db: Db, growerId: string, crop: string, since: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(supplies)
    .where(and(eq(supplies.growerId, growerId), eq(supplies.crop, crop), gt(supplies.createdAt, since)));
  return row?.n ?? 0;
}

/** Runs of matching a grower made for a crop (null: every crop) after `since` (ISO time), refused ones left out. */
export async function matchRunsSince(db: Db, growerId: string, crop: string | null, since: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(matchRuns)
    .where(
      and(
        eq(matchRuns.growerId, growerId),
        crop === null ? isNull(matchRuns.crop) : eq(matchRuns.crop, crop),
        eq(matchRuns.refused, false),
        gt(matchRuns.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}

export async function insertMatchRun(db: Db, row: MatchRunRow): Promise<void> {
  await db.insert(matchRuns).values(row);
}
