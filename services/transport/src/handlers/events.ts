import {
  type Actor,
  AppError,
  type HandoffLot,
  type Owner,
  plantGet,
  type RefusalReason,
  TRANSPORT_EVENT_KINDS,
  type TransportEventInput,
  type TransportEventKind,
  type TransportEventResult,
  transportCompleted,
  transportEventRecord,
} from '@rootline/contracts';
import { pendingEvent } from '@rootline/db';
import { actingOwner, disclosedDistanceKm, haversineKm, secureRandom } from '@rootline/domain';
import { discloseLocation } from '@rootline/geocoder';
import { call, type HandlerContext, handle, ledgerTxId, notFound, type ServiceContext } from '@rootline/host';
import { claimSeedLot, custodiansOf } from '../db/custody.repo.js';
import { capturedEventIdOf } from '../db/epcis-capture.repo.js';
import { findEvent } from '../db/events.repo.js';
import { releaseEventTime, reserveEventTime } from '../db/journey.repo.js';
import type { Recorder } from '../db/ledger.js';
import { emissionsKg, quantityKg, roundKg } from '../domain/carbon.js';
import { assertCustodian, assertMayCorrect } from '../domain/custody.js';
import { CAPTURE_REF_PREFIX } from '../domain/epcis-capture.js';
import { backwardsInTime, instantOf } from '../domain/journey.js';

const invalid = (field: string, message: string, reason?: RefusalReason) =>
  new AppError('VALIDATION_ERROR', `${field}: ${message}`, { field, ...(reason ? { reason } : {}) });

/**
 * The event's handler, named in full. Over HTTP the gateway fills in the caller and their account's name when the
 * request leaves them out (the account is the gateway's); a bus caller names the handler itself.
 */
function handlerOf(input: TransportEventInput): Owner & { nameStatedBy: string | null } {
  const { handler } = input;
  if (!handler?.name) throw invalid('handler', 'name the handler with its id and name', 'name-required');
  return { id: handler.id, name: handler.name, nameStatedBy: handler.nameStatedBy ?? null };
}

/** The recipient named in full (over HTTP the gateway has bound an account's name to it: ADR 176). */
function recipientOf(input: TransportEventInput): (Owner & { nameStatedBy: string | null }) | null {
  const { recipient } = input;
  if (!recipient) return null;
  if (!recipient.name) throw invalid('recipient.name', 'name the recipient', 'name-required');
  return { id: recipient.id, name: recipient.name, nameStatedBy: recipient.nameStatedBy ?? null };
}

/** The handoff id of a seed-sharing event across nodes (only that kind's input carries one), else null. */
function handoffIdOf(input: TransportEventInput): string | null {
  return (input as { handoffId?: string }).handoffId ?? null;
}

/** The answer a recorded event gave, rebuilt from its row (a retry of a finished one gets the same). */
async function storedResult(ctx: ServiceContext, id: string): Promise<TransportEventResult | undefined> {
  const row = await findEvent(ctx.db, id);
  return (
    row && {
      id,
      blockHash: row.blockHash,
      timestamp: new Date(row.recordedAt).toISOString(),
      distanceKm: row.exactDistanceKm,
      kgCo2e: row.exactKgCo2e,
    }
  );
}

/**
 * Checks what the schema cannot: something is named, the plant exists, a correction fits and is the corrected
 * event's handler's (or an ADMIN's), and the handler is a custodian of the plant and the seed lot named (see
 * domain/custody.ts). A seed lot nobody holds yet becomes the handler's, once everything else passed.
 */
export async function checkEvent(
  ctx: ServiceContext,
  id: string,
  input: TransportEventInput,
  handler: Owner,
  actor: Actor,
  caller: HandlerContext,
): Promise<void> {
  if (!input.plantId && !input.seedLotId)
    throw invalid('plantId', 'name a plant (plantId) or a seed lot (seedLotId)', 'plant-or-lot');
  if (Number.isNaN(instantOf(input.eventTime))) throw invalid('eventTime', 'not a valid date and time', 'invalid-time');
  for (const r of input.sensorReadings ?? []) {
    if (Number.isNaN(instantOf(r.at)))
      throw invalid('sensorReadings', 'every reading needs a valid time', 'invalid-time');
  }
  if (input.corrects) {
    const corrected = await findEvent(ctx.db, input.corrects);
    if (!corrected) throw notFound('Transport event', input.corrects);
    assertMayCorrect(actor, corrected);
    if (corrected.plantId !== (input.plantId ?? null) || corrected.seedLotId !== (input.seedLotId ?? null)) {
      throw invalid(
        'corrects',
        'a correction names the same plant and seed lot as the event it corrects',
        'correction-subject',
      );
    }
  }
  const handlerId = handler.id;
  if (input.plantId) {
    // The plant must exist: asked of the plants service, which owns it (NOT_FOUND comes back as is).
    const [plant, custodians] = await Promise.all([
      call(ctx.bus, plantGet, { plantId: input.plantId }, caller),
      custodiansOf(ctx.db, input.plantId),
    ]);
    assertCustodian(actor, handlerId, { field: 'plantId', id: input.plantId, ownerId: plant.owner.id, custodians });
  }
  if (input.seedLotId) {
    let custodians = await custodiansOf(ctx.db, input.seedLotId);
    if (custodians.length === 0) {
      const since = ctx.clock.now().toISOString();
      await claimSeedLot(ctx.db, { seedLotId: input.seedLotId, userId: handlerId, eventId: id, since });
      custodians = await custodiansOf(ctx.db, input.seedLotId);
    }
    assertCustodian(actor, handlerId, { field: 'seedLotId', id: input.seedLotId, custodians });
  }
}

/**
 * The time-order rule: a plant's event may not be earlier than the plant's latest, counting the events still on
 * their way to the ledger. Checked and reserved under the plant's lock, so concurrent events take turns; a
 * correction is exempt but still reserves its instant.
 */
async function putInOrder(ctx: ServiceContext, recoverAfterMs: number, id: string, input: TransportEventInput) {
  if (!input.plantId) return;
  const now = ctx.clock.now();
  const latest = await reserveEventTime(
    ctx.db,
    { id, plantId: input.plantId, txId: ledgerTxId(id), eventAt: new Date(input.eventTime).toISOString() },
    {
      check: !input.corrects,
      now: now.toISOString(),
      staleBefore: new Date(now.getTime() - recoverAfterMs).toISOString(),
    },
  );
  const backwards = backwardsInTime(input.eventTime, latest);
  if (backwards) throw invalid('eventTime', backwards, 'journey-backwards');
}

/**
 * Records one journey event: checks it, applies the privacy level to its locations, works out distance, mass and
 * emissions, and records it through the ledger recorder (transaction `transport.<kind>`, id derived from the event
 * id) with `transport.completed` committed with its row. A call with an idempotency reference answers from the
 * stored event, so a retry gets the first answer.
 */
async function recordEvent(
  ctx: ServiceContext,
  recorder: Recorder,
  recoverAfterMs: number,
  kind: TransportEventKind,
  input: TransportEventInput,
  caller: HandlerContext,
): Promise<TransportEventResult> {
  const handler = handlerOf(input);
  const recipient = recipientOf(input);
  const { actor } = actingOwner(caller, handler.id);
  const id = ctx.newId('tev', caller);
  if (caller.idempotencyRef) {
    const done = await storedResult(ctx, id);
    if (done) return done;
  }
  await checkEvent(ctx, id, input, handler, actor, caller);
  await putInOrder(ctx, recoverAfterMs, id, input);
  const privacy = input.privacyLevel;
  const from = input.from ? await discloseLocation(input.from, privacy, secureRandom) : null;
  const to = await discloseLocation(input.to, privacy, secureRandom);
  // Measured between the given points, so the distance stays true whatever the privacy level discloses.
  const distanceKm = roundKg(input.distanceKm ?? (input.from ? haversineKm(input.from, input.to) : 0));
  const massKg = input.massKg ?? quantityKg(input.quantity) ?? 0;
  const kgCo2e = emissionsKg(input.transportMode, distanceKm, massKg);
  // What everyone else sees (the ledger, the public events, journeys, the trace page, exports): no finer than the
  // points themselves (DISTANCE_STEP_KM), so a leg cannot put a fuzzy or hidden point on a ring around a known one.
  const shownKm = disclosedDistanceKm(distanceKm, privacy);
  const shownKgCo2e = shownKm === null ? null : emissionsKg(input.transportMode, shownKm, massKg);
  const recordedAt = ctx.clock.now().toISOString();
  const row = {
    id,
    kind,
    plantId: input.plantId ?? null,
    seedLotId: input.seedLotId ?? null,
    quantity: input.quantity ?? null,
    eventTime: input.eventTime,
    eventAt: new Date(input.eventTime).toISOString(),
    fromLocation: from,
    toLocation: to,
    privacyLevel: privacy,
    transportMode: input.transportMode,
    distanceKm: shownKm,
    massKg,
    kgCo2e: shownKgCo2e,
    exactDistanceKm: distanceKm,
    exactKgCo2e: kgCo2e,
    handlerId: handler.id,
    handlerName: handler.name,
    handlerNameStatedBy: handler.nameStatedBy,
    recipientId: recipient?.id ?? null,
    recipientName: recipient?.name ?? null,
    recipientNameStatedBy: recipient?.nameStatedBy ?? null,
    sensorReadings: input.sensorReadings ?? [],
    corrects: input.corrects ?? null,
    handoffId: handoffIdOf(input),
    handoffLot: handoffIdOf(input) === null ? null : ((input as { handoffLot?: HandoffLot }).handoffLot ?? null),
    notes: input.notes ?? null,
    recordedAt,
    recordedBy: actor.id,
  };
  // Notes are private to the event's parties: stored with the row, never written to the public ledger.
  // The measured distance and emissions stay off it too: only the handler's footprint reads them.
  // A handoff id is on the ledger only when there is one, so every other event's payload (and hash) stays as it was.
  const { recordedBy: _, notes: _notes, exactDistanceKm: _km, exactKgCo2e: _kg, handoffId, handoffLot, ...rest } = row;
  const payload = handoffId === null ? rest : { ...rest, handoffId, ...(handoffLot === null ? {} : { handoffLot }) };
  // A captured event is announced under the eventID it was captured with (kept before it is recorded, ADR 302).
  const epcisEventId = caller.idempotencyRef?.startsWith(CAPTURE_REF_PREFIX)
    ? await capturedEventIdOf(ctx.db, id)
    : null;
  const receipt = await recorder
    .record(
      {
        txId: ledgerTxId(id),
        txType: `transport.${kind}`,
        payload,
        record: { row },
        events: [
          pendingEvent(
            transportCompleted,
            {
              eventId: id,
              kind,
              plantId: row.plantId,
              seedLotId: row.seedLotId,
              handlerId: row.handlerId,
              recipientId: row.recipientId,
              transportMode: row.transportMode,
              distanceKm: shownKm,
              kgCo2e: shownKgCo2e,
              eventTime: row.eventTime,
              corrects: row.corrects,
              ...(epcisEventId ? { epcisEventId } : {}),
            },
            caller,
          ),
        ],
      },
      caller,
    )
    .catch(async (err: unknown) => {
      // Without its ledger intent the event will never be stored (the ledger refused it): its reservation goes.
      // With one (an outage, a failed store) it stays, since the recovery sweep may still store the event.
      if (input.plantId && !(await recorder.hasIntent(ledgerTxId(id)))) await releaseEventTime(ctx.db, id);
      throw err;
    });
  if (caller.idempotencyRef) {
    const done = await storedResult(ctx, id);
    if (done) return done;
  }
  return { id, blockHash: receipt.blockHash, timestamp: recordedAt, distanceKm, kgCo2e };
}

/** `transport.<kind>.record` for each of the seven kinds. */
export const recordEventHandlers = (ctx: ServiceContext, recorder: Recorder, recoverAfterMs: number) =>
  TRANSPORT_EVENT_KINDS.map((kind) =>
    handle(transportEventRecord[kind], (input, caller) =>
      recordEvent(ctx, recorder, recoverAfterMs, kind, input as TransportEventInput, caller),
    ),
  );
