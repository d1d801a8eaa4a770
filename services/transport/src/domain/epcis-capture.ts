import type { Location } from '@rootline/contracts/common';
import type { ErrorCode } from '@rootline/contracts/errors';
import { TRANSPORT_MODES, type TransportEventKind } from '@rootline/contracts/transport';
import { plantIdOfEpc, pointOfGeoUri } from '@rootline/domain';
import { type EpcisPlaces, isSgln, NO_SGLNS } from './epcis-places.js';

/**
 * How a captured EPCIS event becomes a journey event (ADR 302): the inverse of the query's mapping
 * (`epcisObjectEvent`), for events on one plant. Pure: whether the plant exists and the caller holds it is asked
 * after, by the same checks as the native routes.
 */

/** Business steps (CBV 2.0 bare words) a captured ObjectEvent may carry, and the journey event each becomes. */
export const CAPTURE_STEPS: Readonly<Record<string, TransportEventKind>> = {
  commissioning: 'planting',
  transporting: 'growing',
  creating_class_instance: 'harvest',
  shipping: 'distribution',
  storing: 'seed-saving',
};

/** Kinds whose events move (a departure and a destination), as the query writes them. */
const MOVING = new Set<TransportEventKind>(['growing', 'distribution']);

/** UN/CEFACT Rec. 20 codes of a mass in a harvest's quantity. */
const UNITS: Readonly<Record<string, 'kg' | 'g'>> = { KGM: 'kg', GRM: 'g' };

/** The journey event a captured event names: the fields of `transport.<kind>.record` but the handler. */
export interface CapturedJourneyEvent {
  kind: TransportEventKind;
  plantId: string;
  eventTime: string;
  from?: Location;
  to: Location;
  transportMode: (typeof TRANSPORT_MODES)[number];
  quantity?: { value: number; unit: 'kg' | 'g' };
}

/** A refusal of one event, as the standard's problem types say it. */
export interface CaptureRefusal {
  type: string;
  status: number;
  code: ErrorCode;
  detail: string;
  field?: string;
}

export type CaptureMapping =
  | {
      ok: true;
      event: CapturedJourneyEvent;
      /** The business location when it is an SGLN (ADR 314): the event is answered with it as given. */
      bizLocation?: string;
    }
  | { ok: false; refusal: CaptureRefusal };

const VALIDATION = 'epcisException:ValidationException';
const NO_SUCH_RESOURCE = 'epcisException:NoSuchResourceException';
const IMPLEMENTATION = 'epcisException:ImplementationException';

const invalid = (detail: string, field: string): CaptureMapping => ({
  ok: false,
  refusal: { type: VALIDATION, status: 400, code: 'VALIDATION_ERROR', detail, field },
});
/** What this repository does not do (the standard's 501: functionality not supported). */
const unsupported = (detail: string, field: string): CaptureMapping => ({
  ok: false,
  refusal: { type: IMPLEMENTATION, status: 501, code: 'UNPROCESSABLE', detail, field },
});

/** A CBV business step as its bare word, from a bare word, a `https://ref.gs1.org/cbv/BizStep-` URI or an EPC URN. */
export function bareBizStep(value: string): string {
  return value.replace(/^https:\/\/ref\.gs1\.org\/cbv\/BizStep-/, '').replace(/^urn:epcglobal:cbv:bizstep:/, '');
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const idOf = (v: unknown): string | undefined =>
  v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : undefined;

/** The point a place names: a geo URI's, or that of an SGLN an operator gave a place (ADR 314). */
function point(uri: string | undefined, places: EpcisPlaces): Location | undefined {
  if (!uri) return undefined;
  if (isSgln(uri)) return places.pointOf(uri);
  return pointOfGeoUri(uri) ?? undefined;
}

/** The geo URI of a source or destination list entry of type `location`. */
function listPlace(list: unknown, key: 'source' | 'destination', places: EpcisPlaces): Location | undefined {
  for (const item of asList(list)) {
    const entry = item as Record<string, unknown>;
    const type = typeof entry.type === 'string' ? entry.type.replace(/^https:\/\/ref\.gs1\.org\/cbv\/SDT-/, '') : '';
    if (type === 'location' && typeof entry[key] === 'string') return point(entry[key] as string, places);
  }
  return undefined;
}

/** The one plant the event names, or the refusal: a plant per event, named by an EPC of this repository. */
function plantOf(epcs: unknown[], field: string, companyPrefix: string): { plantId: string } | CaptureMapping {
  const ids = epcs.map((epc) => (typeof epc === 'string' ? plantIdOfEpc(epc, companyPrefix) : null));
  const unknown = epcs.find((_, i) => ids[i] === null);
  if (unknown !== undefined) {
    return {
      ok: false,
      refusal: {
        type: NO_SUCH_RESOURCE,
        status: 404,
        code: 'NOT_FOUND',
        detail: `${field}: ${String(unknown)} names no plant of this repository (its GS1 Digital Link or urn:rootline:plant:)`,
        field,
      },
    };
  }
  const [plantId] = ids;
  if (ids.length !== 1 || !plantId) {
    return invalid(`${field}: name exactly one plant (a journey event is about one plant)`, field);
  }
  return { plantId };
}

/**
 * The journey event an EPCIS event (already valid under GS1's JSON schema) names, or why it is refused.
 * ObjectEvents (ADD or OBSERVE) with a business step of CAPTURE_STEPS, and TransformationEvents turning a plant
 * (`inputEPCList`) into a mass of produce (`outputQuantityList`: a harvest). Where: a movement's departure and
 * destination from `sourceList`/`destinationList` (`location`, geo URIs), any other event's place from
 * `bizLocation` or `readPoint`. Refused: other event types, DELETE, other business steps, error declarations,
 * handoffs to a party (both recorded through /api/transport), places that are not geo URIs.
 */
export function journeyEventOfEpcis(
  e: Record<string, unknown>,
  companyPrefix: string,
  places: EpcisPlaces = NO_SGLNS,
): CaptureMapping {
  const type = e.type;
  if (type !== 'ObjectEvent' && type !== 'TransformationEvent') {
    return unsupported(
      `type: ${String(type)} is not captured here (ObjectEvent and TransformationEvent on plants are)`,
      'type',
    );
  }
  if (e.errorDeclaration !== undefined || e['rootline:corrects'] !== undefined) {
    return unsupported(
      'errorDeclaration: corrections are recorded through /api/transport (corrects)',
      'errorDeclaration',
    );
  }
  const parties = [...asList(e.sourceList), ...asList(e.destinationList)].filter(
    (x) => typeof (x as { type?: unknown }).type === 'string' && !/location$/.test((x as { type: string }).type),
  );
  if (parties.length > 0) {
    return unsupported(
      'destinationList: handoffs to a party are recorded through /api/transport (with the recipient)',
      'destinationList',
    );
  }
  const step = typeof e.bizStep === 'string' ? bareBizStep(e.bizStep) : undefined;
  let kind: TransportEventKind;
  let plant: { plantId: string } | CaptureMapping;
  let quantity: CapturedJourneyEvent['quantity'];
  if (type === 'TransformationEvent') {
    if (step !== undefined && step !== 'creating_class_instance') {
      return unsupported(
        `bizStep: ${step} is not captured on a TransformationEvent (creating_class_instance is)`,
        'bizStep',
      );
    }
    kind = 'harvest';
    plant = plantOf(asList(e.inputEPCList), 'inputEPCList', companyPrefix);
    quantity = massOf(asList(e.outputQuantityList));
    if (!quantity) return invalid('outputQuantityList: give the mass harvested (uom KGM or GRM)', 'outputQuantityList');
  } else {
    if (e.action === 'DELETE')
      return unsupported('action: DELETE is not captured (journeys are append-only)', 'action');
    if (step === undefined) return invalid('bizStep: name the business step (CBV), e.g. commissioning', 'bizStep');
    const mapped = CAPTURE_STEPS[step];
    if (!mapped) {
      return unsupported(`bizStep: ${step} is not captured (${Object.keys(CAPTURE_STEPS).join(', ')} are)`, 'bizStep');
    }
    // Our own export names the kind too: it must be the one the business step says.
    const stated = e['rootline:kind'];
    if (stated !== undefined && stated !== mapped) {
      return invalid(`rootline:kind: ${String(stated)} does not fit bizStep ${step}`, 'rootline:kind');
    }
    kind = mapped;
    if (kind === 'harvest') {
      const from = e['rootline:harvestedFrom'];
      plant = plantOf(typeof from === 'string' ? [from] : asList(e.epcList), 'rootline:harvestedFrom', companyPrefix);
      quantity = massOf(asList(e.quantityList));
      if (!quantity) return invalid('quantityList: give the mass harvested (uom KGM or GRM)', 'quantityList');
    } else {
      plant = plantOf(asList(e.epcList), 'epcList', companyPrefix);
    }
  }
  if (!('plantId' in plant)) return plant;
  const moving = MOVING.has(kind);
  let from: Location | undefined;
  let to: Location | undefined;
  if (moving) {
    from = listPlace(e.sourceList, 'source', places) ?? point(idOf(e.readPoint), places);
    to = listPlace(e.destinationList, 'destination', places);
    if (!to) return invalid('destinationList: give the destination as a location (a geo URI)', 'destinationList');
  } else {
    to = point(idOf(e.bizLocation), places) ?? point(idOf(e.readPoint), places);
    if (!to)
      return invalid(
        'bizLocation: give the place as a geo URI (geo:<lat>,<lon>), or an SGLN this repository names, in ' +
          'bizLocation or readPoint',
        'bizLocation',
      );
  }
  const mode = e['rootline:transportMode'];
  const transportMode = (TRANSPORT_MODES as readonly string[]).includes(mode as string)
    ? (mode as CapturedJourneyEvent['transportMode'])
    : 'none';
  const bizLocation = moving ? undefined : idOf(e.bizLocation);
  return {
    ok: true,
    ...(bizLocation && isSgln(bizLocation) ? { bizLocation } : {}),
    event: {
      kind,
      plantId: plant.plantId,
      eventTime: String(e.eventTime),
      ...(from ? { from } : {}),
      to,
      transportMode,
      ...(quantity ? { quantity } : {}),
    },
  };
}

/** The first mass in a quantity list (KGM or GRM), as a journey quantity. */
function massOf(list: unknown[]): CapturedJourneyEvent['quantity'] {
  for (const item of list) {
    const q = item as { quantity?: unknown; uom?: unknown };
    const unit = typeof q.uom === 'string' ? UNITS[q.uom] : undefined;
    if (unit && typeof q.quantity === 'number' && q.quantity > 0) return { value: q.quantity, unit };
  }
  return undefined;
}

/**
 * How a capture names the journey event it records (the idempotency reference of the record call): the account and
 * the eventID, so a retry or a race names the same event.
 */
export const CAPTURE_REF_PREFIX = 'epcis-capture:';
