import { AppError, type Location, plantGet, transportEpcisEvents } from '@rootline/contracts';
import { epcisContext, epcisObjectEvent, plantIdOfEpc } from '@rootline/domain';
import { call, handle, publicUrlOf, type ServiceContext } from '@rootline/host';
import { type EpcisRow, epcisRows } from '../db/epcis.repo.js';
import { type EpcisPlaces, NO_SGLNS } from '../domain/epcis-places.js';
import { pageToken, planEpcisQuery } from '../domain/epcis-query.js';

const iso = (t: string) => new Date(t).toISOString();

/** A journey event row as the EPCIS event every answer gives (ADR 276), under its captured eventID if it has one. */
export function epcisEventOfRow(r: EpcisRow, base: string, companyPrefix: string, places: EpcisPlaces = NO_SGLNS) {
  return epcisObjectEvent(
    {
      id: r.id,
      kind: r.kind,
      plantId: r.plantId,
      seedLotId: r.seedLotId,
      quantity: r.quantity ?? null,
      eventTime: r.eventTime,
      recordedAt: iso(r.recordedAt),
      from: (r.fromLocation as Location | null) ?? null,
      to: (r.toLocation as Location | null) ?? null,
      transportMode: r.transportMode,
      distanceKm: r.distanceKm,
      kgCo2e: r.kgCo2e,
      handlerId: r.handlerId,
      recipientId: r.recipientId,
      corrects: r.corrects,
      correctedBy: r.correctedBy && r.correctedAt ? { id: r.correctedBy, at: iso(r.correctedAt) } : null,
      txId: r.txId,
      eventID: r.capturedEventId,
      bizLocation: r.capturedBizLocation,
    },
    { publicUrl: base, companyPrefix, placeUri: places.sglnOf },
  );
}

/**
 * An EPCISQueryDocument: the query's results (`queryName`, and `subscriptionID` for a subscription's result) with
 * its events.
 */
export function epcisQueryDocument(
  base: string,
  now: Date,
  results: { queryName: string; subscriptionID?: string },
  eventList: unknown[],
) {
  return {
    '@context': epcisContext(base),
    type: 'EPCISQueryDocument',
    schemaVersion: '2.0',
    creationDate: now.toISOString(),
    epcisBody: { queryResults: { ...results, resultsBody: { eventList } } },
  };
}
const PLANT_ID = /^plt_[A-Za-z0-9]{10,40}$/;

/**
 * transport.epcis.events: a page of journey events as an EPCIS 2.0 query document. Everything in it is what the
 * public journey shows (locations at each event's privacy level, rounded distances, no names and no notes), so any
 * reader gets the same answer. With `epc`, only that plant's events: an EPC that names no plant here, or an unknown
 * plant, is 404 NOT_FOUND as for its journey.
 */
export const queryEpcisEvents = (
  ctx: ServiceContext,
  publicUrl: string | undefined,
  companyPrefix: string,
  places: EpcisPlaces = NO_SGLNS,
) =>
  handle(transportEpcisEvents, async ({ epc, perPage, ...query }, caller) => {
    const plan = planEpcisQuery(query, companyPrefix, places);
    if (epc !== undefined) {
      // A bare plant id is taken as the plant's EPC too: the path a person types.
      const plantId = PLANT_ID.test(epc) ? epc : plantIdOfEpc(epc, companyPrefix);
      if (!plantId) throw new AppError('NOT_FOUND', `${epc} is not an EPC this repository names`, { field: 'epc' });
      await call(ctx.bus, plantGet, { plantId }, caller);
      plan.plantIds = plan.plantIds === null ? [plantId] : plan.plantIds.filter((id) => id === plantId);
    }
    const rows = await epcisRows(ctx.db, { ...plan, limit: perPage + 1 });
    const page = rows.slice(0, perPage);
    const base = publicUrlOf(caller, publicUrl);
    const eventList = page.map((r) => epcisEventOfRow(r, base, companyPrefix, places));
    const last = page.at(-1);
    return {
      document: epcisQueryDocument(base, ctx.clock.now(), { queryName: 'SimpleEventQuery' }, eventList),
      nextPageToken:
        rows.length > perPage && last
          ? // The stored texts, to the microsecond: a millisecond ISO string could repeat or skip an event.
            pageToken({ eventAt: last.eventAt, recordedAt: last.recordedAt, id: last.id })
          : null,
    };
  });
