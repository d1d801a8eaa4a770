import { createHash } from 'node:crypto';

/**
 * EPCIS 2.0 identifiers and event shapes Rootline uses (docs/epcis.md, ADR 275–277): event ids as name-based
 * `urn:uuid:`s, plants as GS1 Digital Link URIs with a GIAI (AI 8004), places as geo URIs, and each journey event
 * kind's CBV business step, disposition and action.
 */

/** RFC 9562's URL namespace: event ids are UUID v5 of `urn:rootline:transport-event:<id>` in it. */
export const UUID_URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** A name-based UUID, version 5 (SHA-1), as RFC 9562 section 5.5 makes it. */
export function uuidV5(name: string, namespace: string = UUID_URL_NAMESPACE): string {
  const ns = Buffer.from(namespace.replaceAll('-', ''), 'hex');
  if (ns.length !== 16) throw new Error(`uuidV5: ${namespace} is not a UUID`);
  const b = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  b[6] = ((b[6] as number) & 0x0f) | 0x50;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A journey event's EPCIS `eventID`: the same for the same event, whatever the address it is read through. */
export function epcisEventId(eventId: string): string {
  return `urn:uuid:${uuidV5(`urn:rootline:transport-event:${eventId}`)}`;
}

/**
 * The GS1 company prefix used when the operator has not set its own: the 952 GS1 prefix is reserved for
 * demonstrations and examples, so no real trade item or asset is ever named by it.
 */
export const PLACEHOLDER_GS1_COMPANY_PREFIX = '9520000';

/** GS1 application identifier of the Global Individual Asset Identifier: each plant is one asset. */
export const GIAI_AI = '8004';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** A plant id's 26 Crockford base32 characters (130 bits) fit in 22 base64url characters (132 bits). */
const REF_LENGTH = 22;
const ULID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The individual asset reference of a plant: its id's 26 Crockford base32 characters re-encoded in 22 base64url
 * characters (all in GS1's character set 82 and unreserved in a URI), so the company prefix (6 to 8 digits) and the
 * reference fit GIAI's 30 characters. Null for a plant id that is not `plt_` + 26 Crockford characters.
 */
export function plantAssetReference(plantId: string): string | null {
  const body = plantId.startsWith('plt_') ? plantId.slice(4) : '';
  if (!ULID_BODY.test(body)) return null;
  let v = 0n;
  for (const c of body) v = v * 32n + BigInt(CROCKFORD.indexOf(c));
  let out = '';
  for (let i = 0; i < REF_LENGTH; i++) {
    out = BASE64URL[Number(v % 64n)] + out;
    v /= 64n;
  }
  return out;
}

/** The plant id an asset reference stands for, or null when it is not one `plantAssetReference` makes. */
export function plantIdOfAssetReference(ref: string): string | null {
  if (ref.length !== REF_LENGTH) return null;
  let v = 0n;
  for (const c of ref) {
    const d = BASE64URL.indexOf(c);
    if (d < 0) return null;
    v = v * 64n + BigInt(d);
  }
  if (v >= 1n << 130n) return null;
  let body = '';
  for (let i = 0; i < 26; i++) {
    body = CROCKFORD[Number(v % 32n)] + body;
    v /= 32n;
  }
  return `plt_${body}`;
}

/** A plant's GIAI: the company prefix and its asset reference (null when the id has no reference). */
export function plantGiai(plantId: string, companyPrefix: string): string | null {
  const ref = plantAssetReference(plantId);
  return ref === null ? null : `${companyPrefix}${ref}`;
}

/** The plant a GIAI names when it starts with the company prefix and holds a plant's reference; else null. */
export function plantIdOfGiai(giai: string, companyPrefix: string): string | null {
  if (!giai.startsWith(companyPrefix)) return null;
  return plantIdOfAssetReference(giai.slice(companyPrefix.length));
}

/**
 * A plant as an EPC: its GS1 Digital Link URI on the public address (`<PUBLIC_URL>/8004/<GIAI>`, which redirects to
 * its public page), or `urn:rootline:plant:<id>` for an id that is not a ULID (none the platform makes).
 */
export function plantEpc(plantId: string, publicUrl: string, companyPrefix: string): string {
  const giai = plantGiai(plantId, companyPrefix);
  return giai === null ? `urn:rootline:plant:${plantId}` : `${publicUrl.replace(/\/+$/, '')}/${GIAI_AI}/${giai}`;
}

/**
 * The plant an EPC names: a Digital Link URI with AI 8004 and our company prefix (on any host: the query may come
 * through another address than the link was made on), or `urn:rootline:plant:<id>`; else null.
 */
export function plantIdOfEpc(epc: string, companyPrefix: string): string | null {
  const urn = /^urn:rootline:plant:(plt_[A-Za-z0-9]{10,40})$/.exec(epc);
  if (urn) return urn[1] as string;
  const m = /^https?:\/\/[^/?#]+(?:\/[^?#]*)?\/8004\/([^/?#]+)$/.exec(epc);
  if (!m) return null;
  let giai: string;
  try {
    giai = decodeURIComponent(m[1] as string);
  } catch {
    return null;
  }
  return plantIdOfGiai(giai, companyPrefix);
}

/** A seed lot as a class of objects (EPCIS `epcClass`): lots are named by growers, not by GS1 keys. */
export const seedLotClass = (seedLotId: string) => `urn:rootline:seed-lot:${seedLotId}`;
/** The produce a plant yields, as a class: what a harvest creates (`creating_class_instance`). */
export const produceClass = (plantId: string) => `urn:rootline:produce:${plantId}`;

/** A point as an RFC 5870 geo URI (`geo:<lat>,<lon>`, WGS 84). */
export function geoUri(point: { latitude: number; longitude: number }): string {
  return `geo:${point.latitude},${point.longitude}`;
}

/** The point of a geo URI (`geo:<lat>,<lon>` with an optional altitude and parameters), or null. */
export function pointOfGeoUri(uri: string): { latitude: number; longitude: number } | null {
  const m = /^geo:(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)(?:,-?\d+(?:\.\d+)?)?(?:;.*)?$/i.exec(uri);
  if (!m) return null;
  const latitude = Number(m[1]);
  const longitude = Number(m[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

export type EpcisAction = 'ADD' | 'OBSERVE' | 'DELETE';

/** How a kind of journey event is written in EPCIS: CBV 2.0 business step, disposition and the action CBV pairs. */
export interface EpcisStep {
  bizStep: string;
  disposition: string;
  action: EpcisAction;
  /** Whether the objects leave their place (a movement in transit): no business location, source and destination. */
  moving: boolean;
}

/**
 * The CBV pairing of each journey event kind (docs/transport.md): `commissioning` and `creating_class_instance`
 * create what they name (ADD); the others observe it.
 */
export const EPCIS_STEPS: Readonly<Record<string, EpcisStep>> = {
  'seed-acquisition': { bizStep: 'receiving', disposition: 'in_progress', action: 'OBSERVE', moving: false },
  planting: { bizStep: 'commissioning', disposition: 'active', action: 'ADD', moving: false },
  growing: { bizStep: 'transporting', disposition: 'in_transit', action: 'OBSERVE', moving: true },
  harvest: { bizStep: 'creating_class_instance', disposition: 'active', action: 'ADD', moving: false },
  distribution: { bizStep: 'shipping', disposition: 'in_transit', action: 'OBSERVE', moving: true },
  'seed-saving': { bizStep: 'storing', disposition: 'in_progress', action: 'OBSERVE', moving: false },
  'seed-sharing': { bizStep: 'shipping', disposition: 'in_transit', action: 'OBSERVE', moving: true },
};

const OTHER_STEP: EpcisStep = { bizStep: 'other', disposition: 'unknown', action: 'OBSERVE', moving: false };

/** The kinds written with a business step (or disposition) among the given values (bare CBV words or CBV URIs). */
export function kindsWith(field: 'bizStep' | 'disposition', values: readonly string[]): string[] {
  const words = new Set(values.map((v) => v.replace(/^https:\/\/ref\.gs1\.org\/cbv\/(BizStep|Disp)-/, '')));
  return Object.entries(EPCIS_STEPS)
    .filter(([, s]) => words.has(s[field]))
    .map(([kind]) => kind);
}

/** UN/CEFACT Rec. 20 codes of the mass units journey events use; seeds, plants and packets are counts (no `uom`). */
const UOM: Record<string, string> = { kg: 'KGM', g: 'GRM' };

/** `+02:00` from an RFC 3339 time; `Z` is `+00:00`. */
export function timeZoneOffset(time: string): string {
  const m = /([+-]\d{2}:\d{2})$/.exec(time);
  return m ? (m[1] as string) : '+00:00';
}

/** One journey event as the EPCIS mapping reads it (locations already at the event's privacy level). */
export interface EpcisSource {
  id: string;
  kind: string;
  plantId: string | null;
  seedLotId: string | null;
  quantity: { value: number; unit: string } | null;
  eventTime: string;
  recordedAt: string;
  from: { latitude: number; longitude: number } | null;
  to: { latitude: number; longitude: number } | null;
  transportMode: string;
  distanceKm: number | null;
  kgCo2e: number | null;
  handlerId: string | null;
  recipientId: string | null;
  corrects: string | null;
  /** The later event that corrects this one and when it was recorded: an EPCIS error declaration. */
  correctedBy: { id: string; at: string } | null;
  /** The ledger transaction that recorded it: its proof bundle is linked. */
  txId: string | null;
  /** The `eventID` it was captured under through EPCIS capture, kept as its id; else one is derived from `id`. */
  eventID?: string | null;
  /** The business location it was captured with when that named no point (an SGLN), kept as given. */
  bizLocation?: string | null;
}

/** Where links and identifiers point. */
export interface EpcisContext {
  publicUrl: string;
  companyPrefix: string;
  /** The identifier an operator gave the place at this point (an SGLN), used instead of its geo URI. */
  placeUri?: (point: { latitude: number; longitude: number }) => string | undefined;
}

/** A party of a handoff as a URI (source and destination lists). */
export const partyUri = (id: string) => `urn:rootline:party:${id}`;

/** The `rootline` namespace of extension fields and its vocabulary document (`/ns/epcis`). */
export const rootlineNamespace = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/ns/epcis#`;

/** GS1's JSON-LD context of EPCIS 2.0 documents. */
export const EPCIS_CONTEXT_URL = 'https://ref.gs1.org/standards/epcis/epcis-context.jsonld';

/** The `@context` of a Rootline EPCIS document: GS1's, and the `rootline` prefix. */
export function epcisContext(publicUrl: string): unknown[] {
  return [EPCIS_CONTEXT_URL, { rootline: rootlineNamespace(publicUrl) }];
}

/**
 * A journey event as an EPCIS 2.0 ObjectEvent. What: the plant (its Digital Link) in `epcList`, the seed lot as a
 * class in `quantityList` (a harvest adds the plant's produce class with the quantity instead, and names the plant
 * in `rootline:harvestedFrom`). Where: `readPoint` and `bizLocation` as geo URIs of the event's place at its privacy
 * level (none when hidden), or the SGLN an operator gave that point, or the SGLN it was captured with; a movement has no business location but a source and destination (`location`, and
 * `possessing_party` for a handoff). A corrected event carries an error declaration naming its correction. Rootline's
 * own fields (kind, transport mode, distance, CO2e, the correction it makes, its ledger proof bundle) are extensions.
 */
export function epcisObjectEvent(e: EpcisSource, ctx: EpcisContext): Record<string, unknown> {
  const step = EPCIS_STEPS[e.kind] ?? OTHER_STEP;
  const base = ctx.publicUrl.replace(/\/+$/, '');
  const plant = e.plantId ? plantEpc(e.plantId, base, ctx.companyPrefix) : null;
  const harvest = e.kind === 'harvest';
  const quantityList: Record<string, unknown>[] = [];
  if (harvest && e.plantId) quantityList.push(quantityElement(produceClass(e.plantId), e.quantity));
  if (e.seedLotId) quantityList.push(quantityElement(seedLotClass(e.seedLotId), harvest ? null : e.quantity));
  const where = step.moving ? (e.from ?? e.to) : (e.to ?? e.from);
  const place = (p: { latitude: number; longitude: number }) => ctx.placeUri?.(p) ?? geoUri(p);
  const sources: Record<string, string>[] = [];
  const destinations: Record<string, string>[] = [];
  if (step.moving) {
    if (e.from) sources.push({ type: 'location', source: place(e.from) });
    if (e.to) destinations.push({ type: 'location', destination: place(e.to) });
    if (e.recipientId && e.handlerId) {
      sources.push({ type: 'possessing_party', source: partyUri(e.handlerId) });
      destinations.push({ type: 'possessing_party', destination: partyUri(e.recipientId) });
    }
  }
  return {
    type: 'ObjectEvent',
    eventTime: e.eventTime,
    eventTimeZoneOffset: timeZoneOffset(e.eventTime),
    recordTime: e.recordedAt,
    eventID: e.eventID ?? epcisEventId(e.id),
    ...(e.correctedBy
      ? {
          errorDeclaration: {
            declarationTime: e.correctedBy.at,
            reason: 'incorrect_data',
            correctiveEventIDs: [epcisEventId(e.correctedBy.id)],
          },
        }
      : {}),
    epcList: plant && !harvest ? [plant] : [],
    ...(quantityList.length ? { quantityList } : {}),
    action: step.action,
    bizStep: step.bizStep,
    disposition: step.disposition,
    ...(where ? { readPoint: { id: place(where) } } : {}),
    ...(where && !step.moving ? { bizLocation: { id: e.bizLocation ?? place(where) } } : {}),
    ...(sources.length ? { sourceList: sources } : {}),
    ...(destinations.length ? { destinationList: destinations } : {}),
    'rootline:kind': e.kind,
    ...(harvest && plant ? { 'rootline:harvestedFrom': plant } : {}),
    'rootline:transportMode': e.transportMode,
    ...(e.distanceKm !== null ? { 'rootline:distanceKm': e.distanceKm } : {}),
    ...(e.kgCo2e !== null ? { 'rootline:kgCo2e': e.kgCo2e } : {}),
    ...(e.corrects ? { 'rootline:corrects': epcisEventId(e.corrects) } : {}),
    ...(e.txId ? { 'rootline:proofBundle': `${base}/api/transparency/proofs/transactions/${e.txId}` } : {}),
  };
}

function quantityElement(epcClass: string, quantity: EpcisSource['quantity']): Record<string, unknown> {
  if (!quantity) return { epcClass };
  const uom = UOM[quantity.unit];
  return { epcClass, quantity: quantity.value, ...(uom ? { uom } : {}) };
}
