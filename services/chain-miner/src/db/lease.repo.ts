import { type Db, fixedStatement } from '@rootline/db';
import { and, eq, gt, sql } from 'drizzle-orm';
import { appenderLease } from './schema.js';

const LEASE = 'appender';

/** The lease row as operators and stats see it. */
export type Lease = typeof appenderLease.$inferSelect;

/** Mining figures the holder records when it renews. */
export interface MiningFigures {
  hashes: number;
  hashRate: number;
  helpers: number;
}

/**
 * Takes the lease if it is free or expired, or renews it if `holder` has it; resolves to the term held, or
 * undefined when another instance holds it. Expiry is database time, so clocks of the instances do not matter.
 */
export async function acquireLease(
  db: Db,
  holder: string,
  process: string,
  ttlMs: number,
): Promise<number | undefined> {
  const expires = sql`now() + ${ttlMs} * interval '1 millisecond'`;
  const rows = await db
    .insert(appenderLease)
    .values({
      name: LEASE,
      holder,
      process,
      term: 1,
      acquiredAt: sql`now()`,
      expiresAt: expires,
    })
    .onConflictDoUpdate({
      target: appenderLease.name,
      set: {
        holder,
        process,
        expiresAt: expires,
        term: sql`case when ${appenderLease.holder} = ${holder} then ${appenderLease.term} else ${appenderLease.term} + 1 end`,
        acquiredAt: sql`case when ${appenderLease.holder} = ${holder} then ${appenderLease.acquiredAt} else now() end`,
        hashes: sql`case when ${appenderLease.holder} = ${holder} then ${appenderLease.hashes} else 0 end`,
        hashRate: sql`case when ${appenderLease.holder} = ${holder} then ${appenderLease.hashRate} else 0 end`,
        helpers: sql`case when ${appenderLease.holder} = ${holder} then ${appenderLease.helpers} else 0 end`,
      },
      setWhere: sql`${appenderLease.holder} = ${holder} or ${appenderLease.expiresAt} < now()`,
    })
    .returning({ term: appenderLease.term });
  return rows[0]?.term;
}

/** The fence of every block's transaction: a fixed text built once and run prepared (see chain.repo.ts). */
const renewHeld = fixedStatement(
  'chain_renew_lease',
  sql`update ${appenderLease} set "expires_at" = now() + ${sql.placeholder('ttlMs')} * interval '1 millisecond'
    where ${appenderLease.name} = ${LEASE} and ${appenderLease.holder} = ${sql.placeholder('holder')}
      and ${appenderLease.expiresAt} > now()
    returning ${appenderLease.term} as "term"`,
);

/**
 * Renews the lease only if `holder` still has it and it has not expired, recording the mining figures;
 * false means the lease is lost. Inside a block's transaction this is the fence: the row stays locked until
 * the block commits, so no other instance can take the lease in between.
 */
export async function renewLease(db: Db, holder: string, ttlMs: number, figures?: MiningFigures): Promise<boolean> {
  if (!figures) return (await renewHeld(db, { ttlMs, holder })).length === 1;
  const rows = await db
    .update(appenderLease)
    .set({ expiresAt: sql`now() + ${ttlMs} * interval '1 millisecond'`, ...figures })
    .where(
      and(eq(appenderLease.name, LEASE), eq(appenderLease.holder, holder), gt(appenderLease.expiresAt, sql`now()`)),
    )
    .returning({ term: appenderLease.term });
  return rows.length === 1;
}

/**
 * Gives the lease up at once (graceful stop), so another instance takes over without waiting for expiry. The
 * row stays, expired, so the term keeps counting.
 */
export async function releaseLease(db: Db, holder: string): Promise<void> {
  await db
    .update(appenderLease)
    .set({ expiresAt: sql`now() - interval '1 millisecond'` })
    .where(and(eq(appenderLease.name, LEASE), eq(appenderLease.holder, holder)));
}

/** The lease while it is held (not expired), or undefined. */
export async function findLease(db: Db): Promise<Lease | undefined> {
  const [row] = await db
    .select()
    .from(appenderLease)
    .where(and(eq(appenderLease.name, LEASE), gt(appenderLease.expiresAt, sql`now()`)))
    .limit(1);
  return row;
}
