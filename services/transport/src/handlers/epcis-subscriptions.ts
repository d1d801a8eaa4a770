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
  currentSnapshot,
  deleteSubscription,
  findSubscription,
  insertSubscription,
  listSubscriptions,
  type SubscriptionRow,
  streamSubscriptions,
} from '../db/epcis-subscriptions.repo.js';
import { type EpcisPlaces, NO_SGLNS } from '../domain/epcis-places.js';
import { type EpcisQueryPlan, planEpcisQuery } from '../domain/epcis-query.js';
import {
  type EpcisScheduleInput,
  nextDueOf,
  type ParsedSchedule,
  parseSchedule,
  ScheduleError,
} from '../domain/epcis-schedule.js';
import { epcisEventOfRow, epcisQueryDocument } from './epcis.js';

const subscription = (row: SubscriptionRow): EpcisSubscription => ({
  subscriptionID: row.id,
  queryName: row.queryName,
  dest: row.dest,
  stream: row.stream,
  schedule: row.schedule ?? null,
  reportIfEmpty: row.reportIfEmpty,
  initialRecordTime: row.initialRecordTime ? new Date(row.initialRecordTime).toISOString() : null,
  createdAt: new Date(row.createdAt).toISOString(),
  nextDueAt: row.nextDueAt ? new Date(row.nextDueAt).toISOString() : null,
  webhookId: row.webhookId,
});

/** A subscription's controls: streamed or scheduled, not both nor neither; a schedule the standard would refuse. */
function scheduleOf(input: { stream?: boolean; schedule?: EpcisScheduleInput }): ParsedSchedule | null {
  if (input.schedule !== undefined && input.stream === true) {
    throw new AppError('VALIDATION_ERROR', 'schedule: a subscription is streamed or scheduled, not both', {
      field: 'schedule',
    });
  }
  if (input.schedule === undefined) {
    if (input.stream === true) return null;
    throw new AppError('VALIDATION_ERROR', 'stream: a subscription is streamed (stream: true) or has a schedule', {
      field: 'stream',
    });
  }
  try {
    return parseSchedule(input.schedule);
  } catch (err) {
    if (!(err instanceof ScheduleError)) throw err;
    const message = err.field === 'schedule' ? err.message : `schedule.${err.message}`;
    throw new AppError('VALIDATION_ERROR', message, { field: 'schedule' });
  }
}

/** Publishes one result of a subscription (in `tx`): the transparency service queues it for its webhook alone. */
export async function publishResult(
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
 * a transparency webhook of that account to `dest`: streamed (each new matching event) or scheduled (what was
 * recorded since the last delivery, at each due time of its QuerySchedule, ADR 320).
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
    const schedule = scheduleOf(input);
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
      stream: schedule === null,
      reportIfEmpty: input.reportIfEmpty,
      initialRecordTime: input.initialRecordTime ? new Date(input.initialRecordTime).toISOString() : null,
      createdAt: now,
      schedule: schedule === null ? null : (input.schedule as Record<string, string>),
      nextDueAt: schedule === null ? null : nextDueOf(schedule, new Date(now))!.toISOString(),
      snapshot: null,
      lastRecordTime: null,
    };
    const base = publicUrlOf(caller, publicUrl);
    try {
      await ctx.db.transaction(async (tx) => {
        // What it has seen (ADR 321): the initial records are the events stored by a transaction this snapshot saw,
        // the stream and the first scheduled delivery take those it did not.
        row.snapshot = await currentSnapshot(tx);
        await insertSubscription(tx, row);
        if (row.initialRecordTime && schedule === null) {
          await publishInitial(ctx, tx, row, plan, base, companyPrefix, places, caller);
        }
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
 * The initial records of a new streamed subscription: what its query matches among the events recorded from
 * `initialRecordTime` and stored by a transaction its snapshot saw (the stream takes the others), in results of at most
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
      seenBy: sub.snapshot,
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
      // Stored by a transaction the subscription's snapshot did not see: none is missed, none sent twice (ADR 321).
      const since = sub.snapshot ? { unseenBy: sub.snapshot } : { recordedFrom: sub.createdAt };
      const rows = await epcisRows(meta.tx, { ...plan, eventIds: [p.eventId], ...since, limit: 1 });
      if (rows.length === 0) continue;
      await publishResult(ctx, meta.tx, sub, `${sub.id}:${p.eventId}`, rows, base, companyPrefix, places, meta);
    }
  });
