import { declaredEvents, type EventDef, publicEventRecorded, publicFormOf } from '@rootline/contracts';
import { type EventMeta, type ServiceContext, subscribeBatch } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { applyManyToAnalytics } from '../db/analytics.repo.js';
import { type AuditDraft, appendEntries } from '../db/audit.repo.js';
import { appendPublicEvents } from '../db/public-events.repo.js';
import { activeWebhooksOf, type DeliveryDraft, enqueueDeliveryDrafts } from '../db/webhooks.repo.js';
import { entityOf, usersConcerned, webhooksOfEvent } from '../domain/event-facts.js';
import { placeOf } from '../domain/webhook-area.js';

/**
 * Every domain event on the stream (`evt.>`): one durable consumer, so the log keeps the stream's order and an
 * event kind declared later is recorded without a change here. Payloads are checked against their declaration
 * by subject; an event nobody declared is still recorded (an audit log keeps what happened), with a warning.
 */
const anyEvent: EventDef = { subject: 'evt.>', payload: Type.Unknown() };

/**
 * Events appended per transaction (ADR 066): the head lock, the Merkle frontier and the commit are paid once per
 * batch instead of once per event.
 */
export const AUDIT_BATCH_MAX = 200;
/** Under load, the shortest time between two audit batches (ADR 099): entries gather into fewer transactions. */
export const AUDIT_BATCH_INTERVAL_MS = 50;

/**
 * Appends each domain event to the audit log, and those of a public kind to the event history, exactly once.
 * A batch of events is appended in one transaction: the entries, their Merkle nodes and the history rows in one
 * statement each; per-event work (webhook deliveries) happens in the loop over the batch.
 */
export const onDomainEvent = (ctx: ServiceContext, webhookWorker: { kick(): void }) => {
  const bySubject = new Map(
    declaredEvents().map((e) => [e.subject, { def: e, check: TypeCompiler.Compile(e.payload) }]),
  );
  return subscribeBatch(
    anyEvent,
    'audit-log',
    async (batch, tx) => {
      const now = ctx.clock.now();
      const drafts: AuditDraft[] = batch.map(({ payload, meta }) => {
        const subject = meta.subject;
        const declared = bySubject.get(subject);
        if (!declared) meta.log.warn({ subject }, 'audit: event subject not declared in the contracts; recorded as is');
        else if (!declared.check.Check(payload)) meta.log.warn({ subject }, 'audit: payload does not match its schema');
        return {
          source: 'event',
          subject,
          kind: declared?.def.kind ?? subject,
          eventId: meta.eventId,
          actor: meta.actor?.id ?? null,
          // Who acted for an organization: the person is the actor, the organization is named beside it.
          ...(meta.actor?.org ? { actingFor: { id: meta.actor.org.id, name: meta.actor.org.name } } : {}),
          entity: entityOf(payload, subject),
          occurredAt: meta.occurredAt,
          recordedAt: now.toISOString(),
          reason: null,
          data: payload ?? null,
        };
      });
      const entries = await appendEntries(tx, drafts, now);
      // The analytics counters count each event newly in the log once (a redelivered one is not appended again).
      await applyManyToAnalytics(
        tx,
        batch
          .filter((_, i) => entries[i])
          .map(({ payload, meta }) => ({ subject: meta.subject, occurredAt: meta.occurredAt, payload })),
      );

      // Per-event steps, for each event newly in the log (a redelivered one is undefined in `entries`): those of a
      // public kind go, in their public form (only the fields the contracts make public), to the history, to the
      // webhooks of the users they concern (found from the whole payload) and to the public feed's webhooks; a
      // webhook narrowed to an area gets those whose public form places them in it.
      const recorded: { payload: unknown; meta: EventMeta; kind: string; users: string[] }[] = [];
      for (const [i, { payload, meta }] of batch.entries()) {
        if (!entries[i]) continue;
        const def = bySubject.get(meta.subject)?.def;
        if (def?.kind) {
          recorded.push({
            payload: publicFormOf(def, payload),
            meta,
            kind: def.kind,
            users: usersConcerned(meta.actor?.id, payload),
          });
        }
      }
      if (recorded.length === 0) return;
      const seqs = await appendPublicEvents(
        tx,
        recorded.map(({ payload, meta, kind }) => ({
          eventId: meta.eventId,
          kind,
          occurredAt: meta.occurredAt,
          data: payload,
        })),
      );
      const hooks = await activeWebhooksOf(
        tx,
        [...new Set(recorded.flatMap((e) => e.users))],
        [...new Set(recorded.map((e) => e.kind))],
      );
      const deliveries: DeliveryDraft[] = [];
      for (const { payload, meta, kind, users } of recorded) {
        // An `own` webhook receives only events that concern its owner; a `public` one every event of its kinds.
        for (const h of webhooksOfEvent(hooks, kind, users, placeOf(payload))) {
          deliveries.push({ webhookId: h.id, eventId: meta.eventId, kind, occurredAt: meta.occurredAt, data: payload });
        }
      }
      await enqueueDeliveryDrafts(tx, deliveries, now);

      // Streams fetch from the history once it is committed (the signal says "up to seq"); a lost signal only
      // delays them to their next poll.
      const seq = seqs[seqs.length - 1]!;
      recorded[0]!.meta.afterCommit(() => {
        if (deliveries.length > 0) webhookWorker.kick();
        ctx.bus.broadcast(publicEventRecorded.subject, { seq }).catch(() => {});
      });
    },
    { batch: { max: AUDIT_BATCH_MAX, intervalMs: AUDIT_BATCH_INTERVAL_MS } },
  );
};
