import type { CallContext } from '@rootline/contracts';
import {
  anyOfTexts,
  type Db,
  executeRows,
  insertFromJson,
  type LedgerIntentsTable,
  type PendingEvent,
} from '@rootline/db';
import { and, asc, count, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { LedgerIntentCounts, LedgerWrite } from './write.js';

/** A pending event as an intent row keeps it: the subject, the payload and the call context (no logger). */
interface StoredEvent {
  subject: string;
  payload: unknown;
  ctx: CallContext;
}

function storedEvent(e: PendingEvent): StoredEvent {
  const { requestId, actor, traceparent } = e.ctx;
  return {
    subject: e.def.subject,
    payload: e.payload,
    ctx: { requestId, ...(actor ? { actor } : {}), ...(traceparent ? { traceparent } : {}) },
  };
}

function pendingOf(e: StoredEvent): PendingEvent {
  // The outbox reads only the subject of an event's declaration.
  return { def: { subject: e.subject } as PendingEvent['def'], payload: e.payload as never, ctx: e.ctx };
}

/** The write an intent row holds, as it was first started. */
export function writeOfIntent<R>(row: LedgerIntentsTable['$inferSelect']): LedgerWrite<R> {
  return {
    txId: row.txId,
    txType: row.txType,
    payload: row.payload,
    record: row.record as R,
    events: (row.events as StoredEvent[]).map(pendingOf),
  };
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/**
 * The intents of one recorder in its service's `ledger_intents` table (`ledgerIntentsTable`): one row per write
 * started and not finished, holding everything needed to finish it.
 */
export function ledgerIntentStore(db: Db, table: LedgerIntentsTable, clock: Clock) {
  /**
   * Inserts the intents of writes with distinct transaction ids (on `on`, the database or a transaction); a retry
   * takes its first attempt's content. Returns the transaction ids inserted now.
   */
  async function writeFresh<R>(fresh: readonly { write: LedgerWrite<R> }[], on: Db = db): Promise<Set<string>> {
    const createdAt = clock.now().toISOString();
    const rows = fresh.map(({ write }) => {
      if (!write.txId) throw new Error('a write recorded with intents needs its txId');
      return {
        txId: write.txId,
        txType: write.txType,
        payload: write.payload,
        record: write.record,
        events: write.events.map(storedEvent),
        createdAt,
      };
    });
    const inserted = new Set(
      (
        await executeRows<{ tx_id: string }>(
          on,
          sql`${insertFromJson(table, rows)} on conflict (tx_id) do nothing returning tx_id`,
        )
      ).map((r) => r.tx_id),
    );
    const retried = fresh.filter((w) => !inserted.has(w.write.txId!));
    if (retried.length === 0) return inserted;
    const existing = await on
      .select()
      .from(table)
      .where(
        inArray(
          table.txId,
          retried.map((w) => w.write.txId!),
        ),
      );
    const byId = new Map(existing.map((r) => [r.txId, r]));
    for (const w of retried) {
      const first = byId.get(w.write.txId!);
      if (first) w.write = writeOfIntent<R>(first);
    }
    return inserted;
  }

  return {
    /**
     * Writes the intents of a batch before its submission. A write whose transaction id has an intent already (a
     * retry) takes over that intent's content, so the retry finishes exactly what the first attempt started.
     */
    async write<R>(batch: readonly { write: LedgerWrite<R>; recovering?: boolean }[]): Promise<void> {
      const all = batch.filter((w) => !w.recovering);
      if (all.length === 0) return;
      // Writes of one transaction id in the same batch (concurrent requests for one record): the first is the
      // write, the others take its content over, as a retry would, so the ledger and the rows hold one content.
      const firstOf = new Map<string, { write: LedgerWrite<R> }>();
      const fresh: { write: LedgerWrite<R> }[] = [];
      const followers: [{ write: LedgerWrite<R> }, { write: LedgerWrite<R> }][] = [];
      for (const w of all) {
        const first = w.write.txId === undefined ? undefined : firstOf.get(w.write.txId);
        if (first) followers.push([w, first]);
        else {
          if (w.write.txId !== undefined) firstOf.set(w.write.txId, w);
          fresh.push(w);
        }
      }
      await writeFresh(fresh);
      for (const [w, first] of followers) w.write = first.write;
    },

    /**
     * Writes one write's intent inside the caller's transaction `tx`, so that a state change and the claim of its
     * ledger write commit together. Returns the write as its intent holds it (a retry's, or a concurrent request's,
     * first content) and whether this call inserted it.
     */
    async writeIn<R>(tx: Db, write: LedgerWrite<R>): Promise<{ write: LedgerWrite<R>; fresh: boolean }> {
      // Read first: an intent being deleted by its store statement is then taken as it is, rather than waited
      // for by the INSERT's conflict check (that statement may be waiting for a lock `tx` holds).
      const [first] = await tx
        .select()
        .from(table)
        .where(inArray(table.txId, [write.txId!]));
      if (first) return { write: writeOfIntent<R>(first), fresh: false };
      const w = { write };
      const inserted = await writeFresh([w], tx);
      return { write: w.write, fresh: inserted.has(write.txId!) };
    },

    /** Whether a write of this transaction id has an intent, read on `on` (the database or a transaction). */
    async hasIn(on: Db, txId: string): Promise<boolean> {
      const rows = await on
        .select({ txId: table.txId })
        .from(table)
        .where(inArray(table.txId, [txId]));
      return rows.length > 0;
    },

    /** The statement that deletes the intents of these transactions (run with the store's statements). */
    deleteStatement(txIds: readonly string[]) {
      return sql`delete from ${table} where ${table.txId} = ${anyOfTexts([...txIds])}`;
    },

    /** Deletes the intents of these transactions now. */
    async delete(txIds: readonly string[]): Promise<void> {
      await db.execute(this.deleteStatement(txIds));
    },

    /**
     * Counts a failed store on the intent, marking it failed at `maxAttempts`; undefined when the intent is gone
     * (the write was finished meanwhile).
     */
    async countFailure(
      txId: string,
      err: unknown,
      maxAttempts: number,
    ): Promise<{ attempts: number; failedAt: string | null } | undefined> {
      const [row] = await db
        .update(table)
        .set({
          attempts: sql`${table.attempts} + 1`,
          lastError: errorText(err),
          failedAt: sql`case when ${table.attempts} + 1 >= ${maxAttempts} then ${clock.now().toISOString()}::timestamptz end`,
          claimedUntil: null,
        })
        .where(inArray(table.txId, [txId]))
        .returning({ attempts: table.attempts, failedAt: table.failedAt });
      return row;
    },

    /**
     * Claims up to `limit` open intents older than `ageMs` (rows another replica holds are skipped; a claim lasts
     * `ageMs`, after which another sweep may take the row over) and returns them.
     */
    async claimStale(ageMs: number, limit: number) {
      const now = clock.now().getTime();
      const claimable = db
        .select({ txId: table.txId })
        .from(table)
        .where(
          and(
            isNull(table.failedAt),
            lte(table.createdAt, new Date(now - ageMs).toISOString()),
            or(isNull(table.claimedUntil), lte(table.claimedUntil, new Date(now).toISOString())),
          ),
        )
        .orderBy(asc(table.createdAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      return db
        .update(table)
        .set({ claimedUntil: new Date(now + ageMs).toISOString() })
        .where(inArray(table.txId, claimable))
        .returning();
    },

    /** Whether a write of this transaction id was started and is not finished (its intent exists). */
    async has(txId: string): Promise<boolean> {
      return this.hasIn(db, txId);
    },

    /** How many writes are pending and how many were given up. */
    async counts(): Promise<LedgerIntentCounts> {
      const [row] = await db.select({ all: count(), failed: count(table.failedAt) }).from(table);
      return { pending: (row?.all ?? 0) - (row?.failed ?? 0), failed: row?.failed ?? 0 };
    },
  };
}

/** The intents of one recorder, as `ledgerIntentStore` makes them. */
export type LedgerIntentStore = ReturnType<typeof ledgerIntentStore>;
