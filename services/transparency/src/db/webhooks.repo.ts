import { newId, type Webhook } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, count, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { webhookDeliveries, webhooks } from './schema.js';

type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function toWebhook(r: WebhookRow): Webhook {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    status: r.status,
    ownerId: r.ownerId,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

export async function insertWebhook(
  db: Db,
  w: { ownerId: string; url: string; events: string[]; secret: string; createdAt: string },
): Promise<Webhook> {
  const [row] = await db
    .insert(webhooks)
    .values({ id: newId('whk'), ...w })
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

/**
 * Active webhooks of any of the `owners`, with the kinds each is subscribed to: one query for a batch of events,
 * which then picks each event's webhooks in memory (`webhooksOfEvent`).
 */
export async function activeWebhooksOf(
  db: Db,
  owners: readonly string[],
): Promise<{ id: string; ownerId: string; events: string[] }[]> {
  if (owners.length === 0) return [];
  return db
    .select({ id: webhooks.id, ownerId: webhooks.ownerId, events: webhooks.events })
    .from(webhooks)
    .where(and(eq(webhooks.status, 'active'), inArray(webhooks.ownerId, [...owners])));
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
  await tx
    .insert(webhookDeliveries)
    .values(drafts.map((d) => ({ id: newId('whd'), ...d, nextAttemptAt: now, createdAt: now })))
    .onConflictDoNothing();
}

/**
 * Claims due deliveries for this worker: moves their next attempt past the lease, so another replica does not
 * take them while they are being sent (a worker that dies leaves them to be retried after the lease).
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<DeliveryRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
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
    if (due.length === 0) return [];
    await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((d) => d.id),
        ),
      );
    return due;
  });
}

export async function recordAttempt(
  db: Db,
  id: string,
  r: {
    status: 'pending' | 'delivered' | 'failed';
    httpStatus: number | null;
    error: string | null;
    next: Date | null;
    at: Date;
  },
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      status: r.status,
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastStatus: r.httpStatus,
      lastError: r.error,
      nextAttemptAt: r.next,
      ...(r.status === 'delivered' ? { deliveredAt: r.at } : {}),
    })
    .where(eq(webhookDeliveries.id, id));
}

/** A receiver answered 410 Gone: the webhook is disabled and its pending deliveries stop. */
export async function disableWebhook(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(webhooks).set({ status: 'disabled' }).where(eq(webhooks.id, id));
    await tx
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, lastError: 'webhook disabled' })
      .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, 'pending')));
  });
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
    items: rows.map((d) => ({
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
    })),
    total: counted?.n ?? 0,
  };
}

/** Deletes a webhook with its deliveries. */
export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    await tx.delete(webhooks).where(eq(webhooks.id, id));
  });
}
