import { EPCIS_PER_PAGE_MAX, type EpcisStoredQuery, newId } from '@rootline/contracts';
import { publicUrlOf, type ServiceContext } from '@rootline/host';
import { type EpcisRow, epcisRows } from '../db/epcis.repo.js';
import { advanceSchedule, claimDueSubscription, currentSnapshot } from '../db/epcis-subscriptions.repo.js';
import type { EpcisPlaces } from '../domain/epcis-places.js';
import { type EpcisQueryPlan, planEpcisQuery } from '../domain/epcis-query.js';
import { nextDue } from '../domain/epcis-schedule.js';
import { publishResult } from '../handlers/epcis-subscriptions.js';

/** Due subscriptions one poll delivers at most (the rest at the next). */
const PER_POLL = 100;

export interface ScheduleJobOptions {
  pollMs: number;
  publicUrl: string | undefined;
  companyPrefix: string;
  places: EpcisPlaces;
}

/**
 * Delivers scheduled EPCIS subscriptions (ADR 320): every `pollMs`, each replica claims due subscriptions one at a
 * time (`FOR UPDATE SKIP LOCKED`) and, in that transaction, publishes through the outbox what the named query matches
 * among the events stored since the last delivery (ADR 321), in results of at most EPCIS_PER_PAGE_MAX events (one
 * empty result with `reportIfEmpty`), and moves the subscription's next due time and snapshot on. A due time that
 * passed while no replica ran is delivered once, then the schedule goes on from now.
 */
export function createScheduleJob(ctx: ServiceContext, o: ScheduleJobOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const base = publicUrlOf(undefined, o.publicUrl);

  /** Delivers the earliest due subscription; false when none is due. */
  const deliverOne = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock.now();
      const sub = await claimDueSubscription(tx, now.toISOString());
      if (!sub) return false;
      const snapshot = await currentSnapshot(tx);
      const caller = { requestId: newId('req', now.getTime()) };
      // The first delivery takes the events recorded since initialRecordTime, then what its snapshot did not see.
      const since =
        sub.lastRecordTime === null && sub.initialRecordTime
          ? { recordedFrom: sub.initialRecordTime }
          : sub.snapshot
            ? { unseenBy: sub.snapshot }
            : { recordedFrom: sub.lastRecordTime ?? sub.createdAt };
      let plan: EpcisQueryPlan | null = null;
      try {
        plan = planEpcisQuery(sub.query as EpcisStoredQuery, o.companyPrefix, o.places);
      } catch {
        plan = null; // Checked when stored; a query a later release refuses matches nothing.
      }
      let after: EpcisQueryPlan['after'] = null;
      for (let part = 0; ; part++) {
        const rows: EpcisRow[] = plan
          ? await epcisRows(tx, { ...plan, ...since, seenBy: snapshot, after, limit: EPCIS_PER_PAGE_MAX })
          : [];
        if (rows.length > 0 || (part === 0 && sub.reportIfEmpty)) {
          const key = `${sub.id}:${new Date(sub.nextDueAt!).toISOString()}:${part}`;
          await publishResult(ctx, tx, sub, key, rows, base, o.companyPrefix, o.places, caller);
        }
        const last = rows.at(-1);
        if (rows.length < EPCIS_PER_PAGE_MAX || !last) break;
        after = { eventAt: last.eventAt, recordedAt: last.recordedAt, id: last.id };
      }
      const dueAt = new Date(sub.nextDueAt!);
      const from = now.getTime() > dueAt.getTime() ? now : dueAt;
      await advanceSchedule(tx, sub.id, {
        nextDueAt: nextDue(sub.schedule ?? {}, from).toISOString(),
        snapshot,
        lastRecordTime: now.toISOString(),
      });
      return true;
    });

  const poll = async () => {
    for (let i = 0; i < PER_POLL && !stopped; i++) {
      if (!(await deliverOne())) return;
    }
  };

  const tick = () => {
    if (running || stopped) return;
    running = poll()
      .catch((err: unknown) => ctx.log.error({ err }, 'scheduled EPCIS subscriptions: a delivery failed'))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    start() {
      stopped = false;
      timer = setInterval(tick, o.pollMs);
      timer.unref();
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
    /** One poll now (tests). */
    poll,
  };
}
