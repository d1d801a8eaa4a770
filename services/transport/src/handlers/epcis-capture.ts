import {
  AppError,
  type CallContext,
  EPCIS_CAPTURE_LIST_LIMIT,
  type EpcisCaptureError,
  type EpcisCaptureJob,
  type ErrorCode,
  idFromKey,
  type TransportEventInput,
  transportEpcisCapture,
  transportEpcisCaptureGet,
  transportEpcisCaptureList,
  transportEventRecord,
} from '@rootline/contracts';
import { actingOwner, actingUser, assertOwnerOrAdmin, epcisEventId } from '@rootline/domain';
import { call, type HandlerContext, handle, notFound, type ServiceContext } from '@rootline/host';
import {
  type CaptureRow,
  failStaleCaptures,
  findCapture,
  findCapturedEvent,
  forgetCapturedEvent,
  insertCapture,
  insertCapturedEvent,
  listCaptures,
  updateCapture,
} from '../db/epcis-capture.repo.js';
import { journeyRows } from '../db/events.repo.js';
import {
  CAPTURE_REF_PREFIX,
  type CapturedJourneyEvent,
  type CaptureRefusal,
  journeyEventOfEpcis,
} from '../domain/epcis-capture.js';
import { type EpcisPlaces, NO_SGLNS } from '../domain/epcis-places.js';
import { instantOf } from '../domain/journey.js';
import { checkEvent } from './events.js';

/** Captured events are recorded at this privacy level: a partner's places are shown to the city (ADR 302). */
const CAPTURE_PRIVACY = 'city' as const;
/** A job still running after this long was left by a process that ended (a restart): it is failed. */
export const CAPTURE_STALE_MS = 15 * 60_000;
/** How long one event may take to be recorded (its block mined). */
const RECORD_TIMEOUT_MS = 120_000;

/** The standard's problem type and HTTP status of each refusal code. */
const PROBLEMS: Partial<Record<ErrorCode, { type: string; status: number; title: string }>> = {
  VALIDATION_ERROR: { type: 'epcisException:ValidationException', status: 400, title: 'Invalid event' },
  NOT_FOUND: { type: 'epcisException:NoSuchResourceException', status: 404, title: 'Resource not found' },
  FORBIDDEN: { type: 'epcisException:SecurityException', status: 403, title: 'Access to resource forbidden' },
  UNAUTHORIZED: { type: 'epcisException:SecurityException', status: 401, title: 'Unauthorised request' },
  CONFLICT: { type: 'epcisException:ValidationException', status: 409, title: 'Conflict' },
  UNPROCESSABLE: {
    type: 'epcisException:ImplementationException',
    status: 501,
    title: 'Functionality not supported by server',
  },
};
const IMPLEMENTATION = {
  type: 'epcisException:ImplementationException',
  status: 500,
  title: 'Implementation exception',
};

/** An eventID that names another account's event. */
const conflict = (eventID: string): CaptureRefusal => ({
  type: 'epcisException:ValidationException',
  status: 409,
  code: 'CONFLICT',
  detail: `eventID: ${eventID} names an event recorded by another account`,
  field: 'eventID',
});

/** A refusal of the mapping as the problem of the event at `instance`. */
function refusalProblem(r: CaptureRefusal, instance: string): EpcisCaptureError {
  const title = PROBLEMS[r.code]?.title ?? IMPLEMENTATION.title;
  return {
    type: r.type,
    title,
    status: r.status,
    detail: r.detail,
    instance,
    code: r.code,
    ...(r.field ? { details: { field: r.field } } : {}),
  };
}

/** An error of the checks or the recording as the problem of the event at `instance`. */
function errorProblem(err: unknown, instance: string): EpcisCaptureError {
  const known = err instanceof AppError ? PROBLEMS[err.code] : undefined;
  const p = known ?? IMPLEMENTATION;
  return {
    type: p.type,
    title: p.title,
    status: p.status,
    detail: err instanceof AppError ? err.message : 'The event could not be recorded',
    instance,
    code: err instanceof AppError ? err.code : 'INTERNAL',
    ...(err instanceof AppError && err.details !== undefined ? { details: err.details } : {}),
  };
}

export function captureJob(row: CaptureRow): EpcisCaptureJob {
  return {
    captureID: row.id,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: row.finishedAt ? new Date(row.finishedAt).toISOString() : null,
    running: row.running,
    success: row.success,
    captureErrorBehaviour: row.errorBehaviour as EpcisCaptureJob['captureErrorBehaviour'],
    eventCount: row.eventCount,
    capturedCount: row.capturedCount,
    errors: row.errors as EpcisCaptureError[],
  };
}

/** The events of an EPCISDocument, or of an EPCISQueryDocument (a query's answer captured back). */
function eventsOf(document: unknown): Record<string, unknown>[] {
  const body = (
    document as {
      epcisBody?: { eventList?: unknown; queryResults?: { resultsBody?: { eventList?: unknown } } };
    } | null
  )?.epcisBody;
  const list = body?.eventList ?? body?.queryResults?.resultsBody?.eventList;
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

/** One event of the document on its way to the journey. */
interface Planned {
  instance: string;
  eventID: string | null;
  event: CapturedJourneyEvent;
  /** Its business location when that was an SGLN. */
  bizLocation: string | null;
}

/** The problem of a job that ended before all its events were recorded. */
const INTERRUPTED: EpcisCaptureError = {
  ...IMPLEMENTATION,
  detail: 'The capture was interrupted; capture the document again (events already recorded are not repeated)',
  instance: 'capture',
  code: 'INTERNAL',
};

/** Fails jobs a process left running (ADR 301). */
export async function failInterruptedCaptures(ctx: ServiceContext): Promise<void> {
  const now = ctx.clock.now();
  await failStaleCaptures(
    ctx.db,
    new Date(now.getTime() - CAPTURE_STALE_MS).toISOString(),
    now.toISOString(),
    INTERRUPTED,
  );
}

/**
 * Runs a capture job: maps and checks every event (the plant, the caller's custody of it, as the native routes
 * do), then records the accepted ones in time order through `transport.<kind>.record`, the native routes' own
 * subject, so the ledger writes and rules are theirs. An event whose `eventID` was captured before by the same
 * account is counted as captured and recorded nothing more. With `rollback`, nothing is recorded once an event
 * is refused by the checks, and recording stops at the first failure.
 */
async function runCapture(
  ctx: ServiceContext,
  job: CaptureRow,
  caller: CallContext,
  companyPrefix: string,
  stopping: () => boolean,
  places: EpcisPlaces,
) {
  const handler = job.handler as { id: string; name: string };
  const { actor } = actingOwner(caller, handler.id);
  const errors: EpcisCaptureError[] = [];
  const planned: Planned[] = [];
  let captured = 0;
  const seen = new Set<string>();
  // The eventIDs the query gives each plant's events, with their handlers (asked once per plant).
  const plants = new Map<string, Map<string, string>>();
  const derivedIds = async (plantId: string) => {
    let ids = plants.get(plantId);
    if (!ids) {
      ids = new Map((await journeyRows(ctx.db, plantId)).map((r) => [epcisEventId(r.id), r.handlerId] as const));
      plants.set(plantId, ids);
    }
    return ids;
  };
  for (const [i, e] of eventsOf(job.document).entries()) {
    const eventID = typeof e.eventID === 'string' ? e.eventID : null;
    const instance = eventID ?? `#/epcisBody/eventList/${i}`;
    try {
      if (eventID) {
        if (seen.has(eventID)) {
          errors.push(
            refusalProblem(
              {
                type: 'epcisException:ValidationException',
                status: 400,
                code: 'VALIDATION_ERROR',
                detail: 'eventID: given twice in the document',
                field: 'eventID',
              },
              instance,
            ),
          );
          continue;
        }
        seen.add(eventID);
        const before = await findCapturedEvent(ctx.db, eventID);
        if (before && before.accountId === job.accountId) {
          captured++;
          continue;
        }
        if (before) {
          errors.push(refusalProblem(conflict(eventID), instance));
          continue;
        }
      }
      const mapped = journeyEventOfEpcis(e, companyPrefix, places);
      if (!mapped.ok) {
        errors.push(refusalProblem(mapped.refusal, instance));
        continue;
      }
      // An event of ours read from the query or the export, captured back: already here.
      if (eventID) {
        const here = await derivedIds(mapped.event.plantId);
        const handlerId = here.get(eventID);
        if (handlerId !== undefined) {
          if (handlerId === handler.id) captured++;
          else errors.push(refusalProblem(conflict(eventID), instance));
          continue;
        }
      }
      const input = { ...mapped.event, privacyLevel: CAPTURE_PRIVACY } as unknown as TransportEventInput;
      // The id names a seed lot's first event only: captured events name none.
      await checkEvent(ctx, 'tev_capture', input, handler, actor, { ...caller, log: ctx.log } as HandlerContext);
      planned.push({ instance, eventID, event: mapped.event, bizLocation: mapped.bizLocation ?? null });
    } catch (err) {
      errors.push(errorProblem(err, instance));
    }
  }
  const rollback = job.errorBehaviour === 'rollback';
  if (!(rollback && errors.length > 0)) {
    // In time order: a plant's journey may not run backwards.
    planned.sort((a, b) => instantOf(a.event.eventTime) - instantOf(b.event.eventTime));
    for (const [n, p] of planned.entries()) {
      if (stopping()) {
        // The service is stopping: the rest is left to a capture of the document again (idempotent).
        errors.push({ ...INTERRUPTED, instance: p.instance });
        break;
      }
      const { kind, ...fields } = p.event;
      // The journey event's id derives from the account and eventID: a retry (or a race) names the same one.
      const ref = `${CAPTURE_REF_PREFIX}${job.accountId}:${p.eventID ?? `${job.id}:${p.instance}`}`;
      // Known before the event is recorded, so the event's own announcement (and the export, and subscriptions)
      // name it by its eventID.
      const transportEventId = idFromKey('tev', ref);
      // Kept when it was given (or its business location was an SGLN, under the eventID the query gives it).
      const kept = p.eventID ?? (p.bizLocation ? epcisEventId(transportEventId) : null);
      try {
        if (kept) {
          await insertCapturedEvent(ctx.db, {
            eventId: kept,
            transportEventId,
            captureId: job.id,
            accountId: job.accountId,
            bizLocation: p.bizLocation,
          });
        }
        await call(
          ctx.bus,
          transportEventRecord[kind],
          { ...fields, privacyLevel: CAPTURE_PRIVACY, handler } as never,
          { ...caller, idempotencyRef: ref },
          RECORD_TIMEOUT_MS,
        );
        captured++;
      } catch (err) {
        // Not recorded: the eventID is free again (a capture of it later tries again).
        if (kept) await forgetCapturedEvent(ctx.db, kept, transportEventId).catch(() => {});
        errors.push(errorProblem(err, p.instance));
        if (rollback) break;
      }
      if (n % 20 === 19)
        await updateCapture(ctx.db, job.id, { capturedCount: captured, errors, success: !errors.length });
    }
  }
  await updateCapture(ctx.db, job.id, {
    capturedCount: captured,
    errors,
    success: errors.length === 0,
    running: false,
    finishedAt: ctx.clock.now().toISOString(),
    document: null,
  });
}

/**
 * The capture subjects; `running` holds the jobs under way, which the service waits for when it stops (a job records
 * no further event once `stopping`).
 */
export function epcisCaptureHandlers(
  ctx: ServiceContext,
  companyPrefix: string,
  running: Set<Promise<void>>,
  stopping: () => boolean,
  places: EpcisPlaces = NO_SGLNS,
) {
  const capture = handle(transportEpcisCapture, async ({ document, errorBehaviour, handler }, caller) => {
    const actor = actingUser(caller);
    const row = await insertCapture(ctx.db, {
      id: ctx.newId('cap', caller),
      accountId: actor.id,
      errorBehaviour,
      document: document as Record<string, unknown>,
      handler,
      eventCount: eventsOf(document).length,
      createdAt: ctx.clock.now().toISOString(),
    });
    const { log: _log, ...context } = caller;
    const job = runCapture(ctx, row, context, companyPrefix, stopping, places)
      .catch(async (err: unknown) => {
        ctx.log.error({ err, captureId: row.id }, 'capture job failed');
        await updateCapture(ctx.db, row.id, {
          running: false,
          success: false,
          finishedAt: ctx.clock.now().toISOString(),
          document: null,
          errors: [errorProblem(err, 'capture')],
        }).catch(() => undefined);
      })
      .finally(() => running.delete(job));
    running.add(job);
    return captureJob(row);
  });

  const get = handle(transportEpcisCaptureGet, async ({ captureId }, caller) => {
    await failInterruptedCaptures(ctx);
    const row = await findCapture(ctx.db, captureId);
    if (!row) throw notFound('Capture job', captureId);
    assertOwnerOrAdmin(caller, row.accountId);
    return captureJob(row);
  });

  const list = handle(transportEpcisCaptureList, async (_input, caller) => {
    await failInterruptedCaptures(ctx);
    const rows = await listCaptures(ctx.db, actingUser(caller).id, EPCIS_CAPTURE_LIST_LIMIT);
    return { jobs: rows.map(captureJob) };
  });

  return [capture, get, list];
}
