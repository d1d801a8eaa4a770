import { newId, type Webhook, type WebhookArea, type WebhookScope } from '@rootline/contracts';
import { anyOfTexts, type Db, executePrepared, insertFromJson } from '@rootline/db';
import { and, asc, count, desc, eq, inArray, isNotNull, lte, notLike, sql } from 'drizzle-orm';
import { webhookDeliveries, webhooks } from './schema.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function toWebhook(r: WebhookRow): Webhook {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    status: r.status,
    ownerId: r.ownerId,
    scope: r.scope,
    area: r.area ?? null,
    createdAt: new Date(r.createdAt).toISOString(),
    disabledReason: r.disabledReason ?? null,
    failingSince: r.failingSince?.toISOString() ?? null,
  };
}

export async function insertWebhook(
  db: Db,
  w: {
    ownerId: string;
    url: string;
    events: string[];
    scope: WebhookScope;
    area: WebhookArea | null;
    secret: string;
    createdAt: string;
  },
): Promise<Webhook> {
  const [row] = await db
    .insert(webhooks)
    .values({ id: newId('whk', Date.parse(w.createdAt)), ...w })
    .returning();
  return toWebhook(row!);
}

export async function listWebhooks(db: Db, ownerId: string, page: number, limit: number) {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(webhooks)
      .where(eq(webhooks.ownerId, ownerId))
      .orderBy(asc(webhooks.createdAt), asc(webhooks.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(webhooks).where(eq(webhooks.ownerId, ownerId)),
  ]);
  return { items: rows.map(toWebhook), total: counted?.n ?? 0 };
}

export async function findWebhook(db: Db, id: string): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

/** Webhooks by id, in one query. */
export async function findWebhooks(db: Db, ids: string[]): Promise<Map<string, WebhookRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(webhooks).where(inArray(webhooks.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** An active webhook as the audit consumer matches events to it. */
export interface ActiveWebhook {
  id: string;
  ownerId: string;
  events: string[];
  scope: WebhookScope;
  area: WebhookArea | null;
}

/**
 * The active webhooks a batch of events may go to: those of any of the `owners` (the users the events concern),
 * and those of `public` scope subscribed to any of the `kinds`. One query for a batch, which then picks each
 * event's webhooks in memory (`webhooksOfEvent`).
 */
export async function activeWebhooksOf(
  db: Db,
  owners: readonly string[],
  kinds: readonly string[],
): Promise<ActiveWebhook[]> {
  if (kinds.length === 0) return [];
  // Fixed text, run prepared: on the audit consumer's path, where drizzle's building was the cost.
  return executePrepared<ActiveWebhook>(
    db,
    sql`select ${webhooks.id}, ${webhooks.ownerId} as "ownerId", ${webhooks.events}, ${webhooks.scope},
        ${webhooks.area} from ${webhooks}
      where ${webhooks.status} = 'active' and (${webhooks.ownerId} = ${anyOfTexts(owners)}
        or (${webhooks.scope} = 'public' and ${webhooks.events} ?| array(select jsonb_array_elements_text(${JSON.stringify(kinds)}::jsonb))))`,
  );
}

/** One event to send to one webhook. */
export interface DeliveryDraft {
  webhookId: string;
  eventId: string;
  kind: string;
  occurredAt: string;
  data: unknown;
}

/** Queues deliveries (of one or many events) in one statement; a delivery already queued is kept as it is. */
export async function enqueueDeliveryDrafts(tx: Db, drafts: readonly DeliveryDraft[], now: Date): Promise<void> {
  if (drafts.length === 0) return;
  // The rows as one JSON parameter: one prepared statement whatever the batch (see `activeWebhooksOf`).
  const rows = drafts.map((d) => ({
    id: newId('whd', now.getTime()),
    webhookId: d.webhookId,
    eventId: d.eventId,
    kind: d.kind,
    occurredAt: d.occurredAt,
    data: d.data,
    nextAttemptAt: now,
    createdAt: now,
  }));
  await executePrepared(tx, sql`${insertFromJson(webhookDeliveries, rows)} on conflict do nothing`);
}

/**
 * Claims due deliveries for this worker: moves their next attempt past the lease, so another replica does not
 * take them while they are being sent (a worker that dies leaves them to be retried after the lease).
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<DeliveryRow[]> {
  // One statement (the locking select inside the update), not a transaction of four round trips.
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        isNotNull(webhookDeliveries.nextAttemptAt),
        lte(webhookDeliveries.nextAttemptAt, now),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  // The rows as they were due (the attempt counts on them); the lease only moved the next attempt.
  return claimed.map((d) => ({ ...d, nextAttemptAt: now }));
}

/** The outcome of one attempt, to record. */
export interface AttemptRecord {
  id: string;
  status: 'pending' | 'delivered' | 'failed';
  httpStatus: number | null;
  error: string | null;
  next: Date | null;
  at: Date;
}

/**
 * Records the outcomes of a batch of attempts in one statement (one round trip instead of one per delivery: the
 * fan-out benchmark showed the per-row updates were the sender's cost).
 */
export async function recordAttempts(db: Db, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const rows = JSON.stringify(
    records.map((r) => ({
      id: r.id,
      status: r.status,
      http_status: r.httpStatus,
      error: r.error,
      next: r.next?.toISOString() ?? null,
      delivered: r.status === 'delivered' ? r.at.toISOString() : null,
    })),
  );
  await db.execute(sql`
    update ${webhookDeliveries} as d set
      status = v.status,
      attempts = d.attempts + 1,
      last_status = v.http_status,
      last_error = v.error,
      next_attempt_at = v.next,
      delivered_at = coalesce(v.delivered, d.delivered_at)
    from jsonb_to_recordset(${rows}::jsonb)
      as v(id text, status text, http_status int, error text, next timestamptz, delivered timestamptz)
    where d.id = v.id`);
}

/**
 * Disables a webhook (410 Gone, or failing for the configured time) and stops its pending deliveries, in the
 * caller's transaction. Decided on the state the sender saw: still active, at the address it sent to, and (for
 * `failing`) with the failure clock it measured, so an owner's change or enabling meanwhile wins over a verdict
 * about the old state. Answers the row as it was, or undefined when the webhook changed (or another replica did it).
 */
export async function disableWebhook(
  tx: Db,
  id: string,
  reason: 'gone' | 'failing',
  /** What the sender saw: the address, and for `failing` the start of the failure clock (null: not compared). */
  seen: { url: string; failingSince: Date | null },
): Promise<WebhookRow | undefined> {
  const [row] = await tx
    .update(webhooks)
    .set({ status: 'disabled', disabledReason: reason })
    .where(
      and(
        eq(webhooks.id, id),
        eq(webhooks.status, 'active'),
        eq(webhooks.url, seen.url),
        seen.failingSince === null ? undefined : eq(webhooks.failingSince, seen.failingSince),
      ),
    )
    .returning();
  if (!row) return undefined;
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, lastError: 'webhook disabled' })
    .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, 'pending')));
  return row;
}

/** Starts a webhook's failure clock at `at` unless it runs already; answers when it started. */
export async function markFailing(db: Db, id: string, at: Date): Promise<Date | null> {
  const [row] = await db
    .update(webhooks)
    .set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${at.toISOString()}::timestamptz)` })
    .where(eq(webhooks.id, id))
    .returning({ failingSince: webhooks.failingSince });
  return row?.failingSince ?? null;
}

/** A receiver answered 2xx: its failure clock stops (only written when it ran). */
export async function markAnswering(db: Db, id: string): Promise<void> {
  await db
    .update(webhooks)
    .set({ failingSince: null })
    .where(and(eq(webhooks.id, id), isNotNull(webhooks.failingSince)));
}

/**
 * Changes a webhook. Enabling it (`status: 'active'`) clears the reason and the failure clock; a new address
 * also restarts the clock, since the old receiver's failures say nothing of the new one.
 */
export async function updateWebhook(
  db: Db,
  id: string,
  change: {
    url?: string;
    events?: string[];
    scope?: WebhookScope;
    area?: WebhookArea | null;
    secret?: string;
    status?: 'active';
  },
): Promise<Webhook | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({
      ...(change.url !== undefined ? { url: change.url, failingSince: null } : {}),
      ...(change.events !== undefined ? { events: change.events } : {}),
      ...(change.scope !== undefined ? { scope: change.scope } : {}),
      ...(change.area !== undefined ? { area: change.area } : {}),
      ...(change.secret !== undefined ? { secret: change.secret } : {}),
      ...(change.status === 'active' ? { status: 'active' as const, disabledReason: null, failingSince: null } : {}),
    })
    .where(eq(webhooks.id, id))
    .returning();
  return row ? toWebhook(row) : undefined;
}

/** Queues a delivery again now, with a fresh retry schedule; undefined when the webhook has no such delivery. */
export async function requeueDelivery(db: Db, webhookId: string, deliveryId: string, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lastError: null, lastStatus: null, deliveredAt: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)))
    .returning();
  return row ? toDelivery(row) : undefined;
}

export function toDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    kind: d.kind,
    status: d.status,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}

export async function listDeliveries(db: Db, webhookId: string, page: number, limit: number) {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)),
  ]);
  return {
    items: rows.map(toDelivery),
    total: counted?.n ?? 0,
  };
}

/** Deletes a webhook with its deliveries. */
export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The webhook row first: of two concurrent deletes, the second waits for the first and then finds nothing.
    const gone = await tx.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
    if (gone.length === 0) return false;
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    return true;
  });
}

/** What the stored secrets need to be opened: how many are sealed, and the key ids named by those that say. */
export async function sealedSecretKeys(db: Db): Promise<{ sealed: number; keyIds: string[] }> {
  const rows = (await db.execute(sql`
    select count(*)::int as n, array_remove(array_agg(distinct
      case when ${webhooks.secret} like 'v2:%' then substring(${webhooks.secret} from 4 for 11) end), null) as ids
    from ${webhooks} where ${webhooks.secret} like 'v1:%' or ${webhooks.secret} like 'v2:%'`)) as unknown as {
    n: number;
    ids: string[] | null;
  }[];
  return { sealed: rows[0]?.n ?? 0, keyIds: rows[0]?.ids ?? [] };
}

/**
 * Re-seals every secret not yet sealed under the current key (`v2:<currentId>:`): stored in plain text (before
 * sealing), sealed in the v1 form, or under an earlier key. One conditional update each, so that a concurrent
 * change of secret wins. Answers how many were re-sealed and which could not be opened (with why).
 */
export async function resealSecrets(
  db: Db,
  currentKeyId: string,
  reseal: (stored: string) => string,
): Promise<{ resealed: number; unreadable: { id: string; error: string }[] }> {
  const rows = await db
    .select({ id: webhooks.id, secret: webhooks.secret })
    .from(webhooks)
    // `_` is a LIKE wildcard and appears in base64url ids: escaped, so only this exact id counts as current.
    .where(notLike(webhooks.secret, `v2:${currentKeyId.replaceAll('_', '\\_')}:%`));
  let resealed = 0;
  const unreadable: { id: string; error: string }[] = [];
  for (const r of rows) {
    let next: string;
    try {
      next = reseal(r.secret);
    } catch (err) {
      unreadable.push({ id: r.id, error: (err as Error).message });
      continue;
    }
    const done = await db
      .update(webhooks)
      .set({ secret: next })
      .where(and(eq(webhooks.id, r.id), eq(webhooks.secret, r.secret)))
      .returning({ id: webhooks.id });
    resealed += done.length;
  }
  return { resealed, unreadable };
}
