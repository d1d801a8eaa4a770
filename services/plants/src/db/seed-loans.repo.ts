import type { GrownPlant } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import { plants, seedLotLoans, seedLots } from './schema.js';

export type SeedLoanRow = typeof seedLotLoans.$inferSelect;
export type NewSeedLoanRow = typeof seedLotLoans.$inferInsert;

export async function insertSeedLoan(db: Db, row: NewSeedLoanRow): Promise<SeedLoanRow> {
  const [created] = await db.insert(seedLotLoans).values(row).returning();
  return created as SeedLoanRow;
}

/** A loan by id; `forUpdate` locks its row for the transaction's change. */
export async function findSeedLoan(db: Db, id: string, forUpdate = false): Promise<SeedLoanRow | undefined> {
  const q = db.select().from(seedLotLoans).where(eq(seedLotLoans.id, id)).limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function updateSeedLoan(db: Db, id: string, change: Partial<NewSeedLoanRow>): Promise<SeedLoanRow> {
  const [row] = await db.update(seedLotLoans).set(change).where(eq(seedLotLoans.id, id)).returning();
  return row as SeedLoanRow;
}

export interface SeedLoanFilter {
  /** The lender's loans (lenderId) or the borrower's (borrowerId). */
  lenderId?: string;
  borrowerId?: string;
  status?: 'open' | 'overdue' | 'returned';
  seedLotId?: string;
  /** The instant overdue is judged at (the service's clock). */
  now: string;
}

function where(f: SeedLoanFilter): SQL | undefined {
  const status =
    f.status === 'returned'
      ? isNotNull(seedLotLoans.returnedAt)
      : f.status === 'open'
        ? and(isNull(seedLotLoans.returnedAt), gte(seedLotLoans.dueAt, f.now))
        : f.status === 'overdue'
          ? and(isNull(seedLotLoans.returnedAt), lt(seedLotLoans.dueAt, f.now))
          : undefined;
  return and(
    f.lenderId === undefined ? undefined : eq(seedLotLoans.lenderId, f.lenderId),
    f.borrowerId === undefined ? undefined : eq(seedLotLoans.borrowerId, f.borrowerId),
    f.seedLotId === undefined ? undefined : eq(seedLotLoans.seedLotId, f.seedLotId),
    status,
  );
}

/** One page of loans, newest first, and their count. */
export async function listSeedLoans(
  db: Db,
  f: SeedLoanFilter,
  offset: number,
  limit: number,
): Promise<{ rows: SeedLoanRow[]; total: number }> {
  const w = where(f);
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(seedLotLoans)
      .where(w)
      .orderBy(desc(seedLotLoans.lentAt), desc(seedLotLoans.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(seedLotLoans).where(w),
  ]);
  return { rows, total: Number(counted[0]?.total ?? 0) };
}

/** The crop and variety of lots, by id. */
export async function lotNames(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { crop: string; variety: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: seedLots.id, crop: seedLots.crop, variety: seedLots.variety })
    .from(seedLots)
    .where(inArray(seedLots.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { crop: r.crop, variety: r.variety }]));
}

/**
 * The plants grown from each loan: registered from its lot, owned by its borrower, since it was lent; in
 * registration order with their names, by loan id.
 */
export async function plantsGrownFrom(
  db: Db,
  loans: readonly Pick<SeedLoanRow, 'id' | 'seedLotId' | 'borrowerId' | 'lentAt'>[],
): Promise<Map<string, GrownPlant[]>> {
  const grown = new Map<string, GrownPlant[]>(loans.map((l) => [l.id, []]));
  if (loans.length === 0) return grown;
  const rows = await db
    .select({
      id: plants.id,
      commonName: plants.commonName,
      scientificName: plants.scientificName,
      seedLotId: plants.seedLotId,
      ownerId: plants.ownerId,
      registeredAt: plants.registeredAt,
    })
    .from(plants)
    .where(
      or(
        ...loans.map((l) =>
          and(eq(plants.seedLotId, l.seedLotId), eq(plants.ownerId, l.borrowerId), gte(plants.registeredAt, l.lentAt)),
        ),
      ),
    )
    .orderBy(plants.registeredAt, plants.id);
  for (const l of loans) {
    const lentAt = new Date(l.lentAt).getTime();
    grown.set(
      l.id,
      rows
        .filter(
          (p) =>
            p.seedLotId === l.seedLotId && p.ownerId === l.borrowerId && new Date(p.registeredAt).getTime() >= lentAt,
        )
        .map((p) => ({ id: p.id, commonName: p.commonName, scientificName: p.scientificName })),
    );
  }
  return grown;
}
