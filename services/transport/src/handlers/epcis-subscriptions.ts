import {
  AppError,
  type CallContext,
  EPCIS_PER_PAGE_MAX,
  EPCIS_SUBSCRIPTION_KIND,
  EPCIS_SUBSCRIPTION_LIMIT,
  type EpcisStoredQuery,
  type EpcisSubscription,
  epcisSubscriptionMatched,
  transportCompleted,
  transportEpcisSubscriptionCreate,
  transportEpcisSubscriptionDelete,
  transportEpcisSubscriptionGet,
  transportEpcisSubscriptionList,
  webhookCreateForSubscription,
  webhookDelete,
} from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { actingUser } from '@rootline/domain';
import { call, type EventMeta, handle, notFound, publicUrlOf, type ServiceContext, subscribe } from '@rootline/host';
import { type EpcisRow, epcisRows } from '../db/epcis.repo.js';
import { findNamedQuery } from '../db/epcis-queries.repo.js';
import {
  countSubscriptions,
  deleteSubscription,
  findSubscription,
  insertSubscription,
  listSubscriptions,
  type SubscriptionRow,
  streamSubscriptions,
} from '../db/epcis-subscriptions.repo.js';
import { type EpcisPlaces, NO_SGLNS } from '../domain/epcis-places.js';
import { type EpcisQueryPlan, planEpcisQuery } from '../domain/epcis-query.js';
import { epcisEventOfRow, epcisQueryDocument } from './epcis.js';

const subscription = (row: SubscriptionRow): EpcisSubscription => ({
  subscriptionID: row.id,
  queryName: row.queryName,
  dest: row.dest,
  stream: row.stream,
  reportIfEmpty: row.reportIfEmpty,
  initialRecordTime: row.initialRecordTime ? new Date(row.initialRecordTime).toISOString() : null,
  createdAt: new Date(row.createdAt).toISOString(),
  webhookId: row.webhookId,
});

/** Publishes one result of a subscription (in `tx`): the transparency service queues it for its webhook alone. */
async function publishResult(
  ctx: ServiceContext,
  tx: Db,
  sub: SubscriptionRow,
  deliveryKey: string,
  rows: EpcisRow[],
  base: string,
  companyPrefix: string,
  places: EpcisPlaces,
  caller: CallContext,
): Promise<void> {
  const document = epcisQueryDocument(
    base,
    ctx.clock.now(),
    { queryName: sub.queryName, subscriptionID: sub.id },
    rows.map((r) => epcisEventOfRow(r, base, companyPrefix, places)),
  );
  await ctx.outbox.enqueue(
    tx,
    epcisSubscriptionMatched,
    {
      subscriptionID: sub.id,
      queryName: sub.queryName,
      ownerId: sub.accountId,
      webhookId: sub.webhookId,
      deliveryKey,
      eventCount: rows.length,
      document,
    },
    caller,
  );
}

/** Deletes a subscription's webhook; one already gone is fine. */
export async function removeSubscriptionWebhook(ctx: ServiceContext, webhookId: string, caller: CallContext) {
  await call(ctx.bus, webhookDelete, { webhookId }, caller).catch((err: unknown) => {
    if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
  });
}

/**
 * Subscriptions to named EPCIS queries (ADR 313): each is the account's own, under its named query, and delivered by
 * a transparency webhook of that account to `dest`. Only streamed subscriptions are taken (a schedule is refused
 * by the gateway as not implemented).
 */
export function epcisSubscriptionHandlers(
  ctx: ServiceContext,
  publicUrl: string | undefined,
  companyPrefix: string,
  places: EpcisPlaces = NO_SGLNS,
) {
  const create = handle(transportEpcisSubscriptionCreate, async (input, caller) => {
    const accountId = actingUser(caller).id;
    const named = await findNamedQuery(ctx.db, accountId, input.queryName);
    if (!named) throw notFound('Named query', input.queryName);
    if (input.stream !== true) {
      throw new AppError('VALIDATION_ERROR', 'stream: a subscription is streamed (stream: true)', { field: 'stream' });
    }
    if ((await countSubscriptions(ctx.db, accountId, input.queryName)) >= EPCIS_SUBSCRIPTION_LIMIT) {
      throw new AppError('CONFLICT', `At most ${EPCIS_SUBSCRIPTION_LIMIT} subscriptions per named query`, {
        field: 'queryName',
      });
    }
    const plan = planEpcisQuery(named.query as EpcisStoredQuery, companyPrefix, places);
    const hook = await call(
      ctx.bus,
      webhookCreateForSubscription,
      { url: input.dest, secret: input.signatureToken, kind: EPCIS_SUBSCRIPTION_KIND },
      caller,
    ).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'VALIDATION_ERROR') {
        throw new AppError('VALIDATION_ERROR', err.message.replace(/^url: /, 'dest: '), { field: 'dest' });
      }
      throw err;
    });
    const now = ctx.clock.now().toISOString();
    const row: SubscriptionRow = {
      id: ctx.newId('sub', caller),
      accountId,
      queryName: input.queryName,
      dest: input.dest,
      webhookId: hook.id,
      stream: true,
      reportIfEmpty: input.reportIfEmpty,
      initialRecordTime: input.initialRecordTime ? new Date(input.initialRecordTime).toISOString() : null,
      createdAt: now,
    };
    const base = publicUrlOf(caller, publicUrl);
    try {
      await ctx.db.transaction(async (tx) => {
        await insertSubscription(tx, row);
        if (row.initialRecordTime) await publishInitial(ctx, tx, row, plan, base, companyPrefix, places, caller);
      });
    } catch (err) {
      await removeSubscriptionWebhook(ctx, hook.id, caller).catch(() => {});
      throw err;
    }
    return { ...subscription(row), signingSecret: hook.signingSecret };
  });

  const list = handle(transportEpcisSubscriptionList, async ({ queryName }, caller) => {
    const accountId = actingUser(caller).id;
    if (!(await findNamedQuery(ctx.db, accountId, queryName))) throw notFound('Named query', queryName);
    return { subscriptions: (await listSubscriptions(ctx.db, accountId, queryName)).map(subscription) };
  });

  const get = handle(transportEpcisSubscriptionGet, async ({ queryName, subscriptionID }, caller) => {
    const row = await findSubscription(ctx.db, actingUser(caller).id, queryName, subscriptionID);
    if (!row) throw notFound('Subscription', subscriptionID);
    return subscription(row);
  });

  const remove = handle(transportEpcisSubscriptionDelete, async ({ queryName, subscriptionID }, caller) => {
    const row = await deleteSubscription(ctx.db, actingUser(caller).id, queryName, subscriptionID);
    if (!row) throw notFound('Subscription', subscriptionID);
    await removeSubscriptionWebhook(ctx, row.webhookId, caller);
    return { deleted: true };
  });

  return [create, list, get, remove];
}

/**
 * The initial records of a new subscription: what its query matches among the events recorded from
 * `initialRecordTime` until the subscription was made (the stream takes those recorded after), in results of at most
 * EPCIS_PER_PAGE_MAX events; with `reportIfEmpty`, one empty result when nothing matched.
 */
async function publishInitial(
  ctx: ServiceContext,
  tx: Db,
  sub: SubscriptionRow,
  plan: EpcisQueryPlan,
  base: string,
  companyPrefix: string,
  places: EpcisPlaces,
  caller: CallContext,
): Promise<void> {
  let after: EpcisQueryPlan['after'] = null;
  for (let part = 0; ; part++) {
    const rows = await epcisRows(tx, {
      ...plan,
      after,
      recordedFrom: sub.initialRecordTime,
      recordedBefore: sub.createdAt,
      limit: EPCIS_PER_PAGE_MAX,
    });
    if (rows.length > 0 || (part === 0 && sub.reportIfEmpty)) {
      await publishResult(ctx, tx, sub, `${sub.id}:initial:${part}`, rows, base, companyPrefix, places, caller);
    }
    const last = rows.at(-1);
    if (rows.length < EPCIS_PER_PAGE_MAX || !last) return;
    after = { eventAt: last.eventAt, recordedAt: last.recordedAt, id: last.id };
  }
}

/**
 * Each new journey event (recorded natively or captured) against every streamed subscription: one that its named
 * query matches, by the planner and the query `GET /events` runs, is published as a result of one event for that
 * subscription's webhook, in the inbox transaction (applied once per event).
 */
export const matchSubscriptions = (
  ctx: ServiceContext,
  publicUrl: string | undefined,
  companyPrefix: string,
  places: EpcisPlaces = NO_SGLNS,
) =>
  subscribe(transportCompleted, 'epcis-subscriptions', async (p, meta: EventMeta) => {
    const subs = await streamSubscriptions(meta.tx);
    if (subs.length === 0) return;
    const base = publicUrlOf(meta, publicUrl);
    for (const sub of subs) {
      let plan: EpcisQueryPlan;
      try {
        plan = planEpcisQuery(sub.query as EpcisStoredQuery, companyPrefix, places);
      } catch {
        continue; // Checked when stored; a query a later release refuses matches nothing.
      }
      const rows = await epcisRows(meta.tx, { ...plan, eventIds: [p.eventId], recordedFrom: sub.createdAt, limit: 1 });
      if (rows.length === 0) continue;
      await publishResult(ctx, meta.tx, sub, `${sub.id}:${p.eventId}`, rows, base, companyPrefix, places, meta);
    }
  });
