import type { EpcisEventsQuery } from '@rootline/contracts/epcis';
import { EPCIS_EVENT_TYPES } from '@rootline/contracts/epcis';
import { AppError } from '@rootline/contracts/errors';
import type { RefusalReason } from '@rootline/contracts/refusal-reasons';
import { EPCIS_STEPS, kindsWith, plantIdOfEpc, pointOfGeoUri } from '@rootline/domain';
import { type EpcisPlaces, isSgln, NO_SGLNS } from './epcis-places.js';

/** Where a page of an EPCIS query starts: after this event (instant, recording time, id). */
export interface EpcisCursor {
  eventAt: string;
  recordedAt: string;
  id: string;
}

/** The parsed query: each constraint, or null when the query leaves it open. */
export interface EpcisQueryPlan {
  kinds: string[] | null;
  from: string | null;
  to: string | null;
  plantIds: string[] | null;
  bizLocations: { latitude: number; longitude: number }[] | null;
  /** SGLNs asked for as business locations (ADR 314): those captured with them match too. */
  bizLocationIds: string[];
  placedKinds: string[];
  after: EpcisCursor | null;
}

const invalid = (field: string, reason: RefusalReason, message: string) =>
  new AppError('VALIDATION_ERROR', `${field}: ${message}`, { field, reason });

/** The values of a pipe-delimited parameter (the standard's `style: pipeDelimited`), blanks dropped. */
export function pipeList(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  return value
    .split('|')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function instant(field: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw invalid(field, 'invalid-time', `${value} is not a date-time`);
  return new Date(t).toISOString();
}

/** The next page's token: the last event's position, as base64url JSON (opaque to the client). */
export function pageToken(c: EpcisCursor): string {
  return Buffer.from(JSON.stringify([c.eventAt, c.recordedAt, c.id])).toString('base64url');
}

export function cursorOfToken(token: string | undefined): EpcisCursor | null {
  if (token === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'string')) {
      const [eventAt, recordedAt, id] = v as [string, string, string];
      if (!Number.isNaN(Date.parse(eventAt)) && !Number.isNaN(Date.parse(recordedAt))) {
        return { eventAt, recordedAt, id };
      }
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw invalid('nextPageToken', 'unknown-token', 'not a token this repository gave');
}

/** Intersects two kind lists where either may be open (null). */
function both(a: string[] | null, b: string[] | null): string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.filter((k) => b.includes(k));
}

/**
 * The constraints of an EPCIS SimpleEventQuery over journey events (all ObjectEvents): event types, times, business
 * steps and dispositions (as kinds), EPCs (plants), business locations (geo URIs) and the page's start. A value
 * that cannot match (another event type, an unknown EPC) matches nothing; a malformed one is refused.
 */
export function planEpcisQuery(
  q: EpcisEventsQuery,
  companyPrefix: string,
  places: EpcisPlaces = NO_SGLNS,
): EpcisQueryPlan {
  const all = Object.keys(EPCIS_STEPS);
  const types = pipeList(q.eventType);
  let kinds: string[] | null =
    types === null ? null : types.some((t) => (EPCIS_EVENT_TYPES as readonly string[]).includes(t)) ? all : [];
  const steps = pipeList(q.EQ_bizStep);
  if (steps) kinds = both(kinds, kindsWith('bizStep', steps));
  const dispositions = pipeList(q.EQ_disposition);
  if (dispositions) kinds = both(kinds, kindsWith('disposition', dispositions));

  let plantIds: string[] | null = null;
  for (const field of ['MATCH_epc', 'MATCH_anyEPC'] as const) {
    const epcs = pipeList(q[field]);
    if (!epcs) continue;
    const ids = epcs.map((e) => plantIdOfEpc(e, companyPrefix)).filter((id): id is string => id !== null);
    plantIds = plantIds === null ? ids : plantIds.filter((id) => ids.includes(id));
  }

  const asked = pipeList(q.EQ_bizLocation);
  const bizLocationIds = asked?.filter(isSgln) ?? [];
  const bizLocations =
    asked?.flatMap((uri) => {
      // An SGLN: the point an operator gave it, if any, and the events captured with it.
      if (isSgln(uri)) return [places.pointOf(uri)].filter((p) => p !== undefined);
      const point = pointOfGeoUri(uri);
      if (!point) {
        throw invalid('EQ_bizLocation', 'not-a-geo-uri', `${uri} is not a geo URI (geo:<lat>,<lon>) or an SGLN`);
      }
      return [point];
    }) ?? null;

  return {
    kinds,
    from: instant('GE_eventTime', q.GE_eventTime),
    to: instant('LT_eventTime', q.LT_eventTime),
    plantIds,
    bizLocations,
    bizLocationIds,
    placedKinds: all.filter((k) => !EPCIS_STEPS[k]?.moving),
    after: cursorOfToken(q.nextPageToken),
  };
}
