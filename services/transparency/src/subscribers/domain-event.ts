import { declaredEvents, type EventDef, publicEventRecorded } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { applyToAnalytics } from '../db/analytics.repo.js';
import { appendEntry } from '../db/audit.repo.js';
import { appendPublicEvent } from '../db/public-events.repo.js';
import { enqueueDeliveries, webhooksFor } from '../db/webhooks.repo.js';
import { entityOf, usersConcerned } from '../domain/event-facts.js';

/**
 * Every domain event on the stream (`evt.>`): one durable consumer, so the log keeps the stream's order and an
 * event kind declared later is recorded without a change here. Payloads are checked against their declaration
 * by subject; an event nobody declared is still recorded (an audit log keeps what happened), with a warning.
 */
const anyEvent: EventDef = { subject: 'evt.>', payload: Type.Unknown() };

/** Appends each domain event to the audit log, and those of a public kind to the event history, exactly once. */
export const onDomainEvent = (ctx: ServiceContext, webhookWorker: { kick(): void }) => {
  const bySubject = new Map(
    declaredEvents().map((e) => [e.subject, { def: e, check: TypeCompiler.Compile(e.payload) }]),
  );
  return subscribe(anyEvent, 'audit-log', async (payload, meta) => {
    const subject = meta.subject;
    const declared = bySubject.get(subject);
    if (!declared) meta.log.warn({ subject }, 'audit: event subject not declared in the contracts; recorded as is');
    else if (!declared.check.Check(payload)) meta.log.warn({ subject }, 'audit: payload does not match its schema');
    const now = ctx.clock.now();
    const entry = await appendEntry(
      meta.tx,
      {
        source: 'event',
        subject,
        kind: declared?.def.kind ?? subject,
        eventId: meta.eventId,
        actor: meta.actor?.id ?? null,
        entity: entityOf(payload, subject),
        occurredAt: meta.occurredAt,
        recordedAt: now.toISOString(),
        reason: null,
        data: payload ?? null,
      },
      now,
    );
    if (entry) await applyToAnalytics(meta.tx, { subject, occurredAt: meta.occurredAt, payload });
    const kind = declared?.def.kind;
    if (!entry || !kind) return;
    const seq = await appendPublicEvent(meta.tx, {
      eventId: meta.eventId,
      kind,
      occurredAt: meta.occurredAt,
      data: payload,
    });
    // A webhook receives only events that concern its owner.
    const hooks = await webhooksFor(meta.tx, kind, usersConcerned(meta.actor?.id, payload));
    await enqueueDeliveries(
      meta.tx,
      hooks.map((h) => h.id),
      { eventId: meta.eventId, kind, occurredAt: meta.occurredAt, data: payload },
      now,
    );
    // Streams fetch from the history once it is committed; a lost signal only delays them to their next poll.
    meta.afterCommit(() => {
      if (hooks.length > 0) webhookWorker.kick();
      ctx.bus.broadcast(publicEventRecorded.subject, { seq }).catch(() => {});
    });
  });
};
