import type { ExportFormat } from '@rootline/contracts/transparency-exports';

/** One public event as an export reads it; `data` is the payload's JSON text as stored. */
export interface ExportRow {
  seq: number;
  eventId: string;
  kind: string;
  occurredAt: string;
  data: string;
}

/** The kind EPCIS exports carry: journey events of the transport service. */
export const EPCIS_KIND = 'transport.completed';

/** EPCIS 2.0 business step and disposition of each transport event kind (docs/transport.md). */
const EPCIS_STEPS: Record<string, { bizStep: string; disposition: string }> = {
  'seed-acquisition': { bizStep: 'receiving', disposition: 'in_progress' },
  planting: { bizStep: 'commissioning', disposition: 'active' },
  growing: { bizStep: 'transporting', disposition: 'in_transit' },
  harvest: { bizStep: 'creating_class_instance', disposition: 'active' },
  distribution: { bizStep: 'shipping', disposition: 'in_transit' },
  'seed-saving': { bizStep: 'storing', disposition: 'in_progress' },
  'seed-sharing': { bizStep: 'shipping', disposition: 'in_transit' },
};

/** RFC 4180 field: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export const CSV_HEADER = 'seq,id,kind,occurredAt,data\r\n';

export function csvLine(row: ExportRow): string {
  return `${row.seq},${csvField(row.eventId)},${csvField(row.kind)},${row.occurredAt},${csvField(row.data)}\r\n`;
}

/** One JSON array element (without the separator); `data` is spliced in as the stored JSON text. */
export function jsonItem(row: ExportRow): string {
  const head = JSON.stringify({ seq: row.seq, id: row.eventId, kind: row.kind, occurredAt: row.occurredAt });
  return `${head.slice(0, -1)},"data":${row.data}}`;
}

interface TransportPayload {
  eventId: string;
  kind: string;
  plantId: string | null;
  seedLotId: string | null;
  transportMode: string;
  distanceKm: number;
  kgCo2e: number;
  eventTime: string;
  corrects: string | null;
}

/** `+02:00` from an RFC 3339 time; `Z` is `+00:00`. */
export function timeZoneOffset(time: string): string {
  const m = /([+-]\d{2}:\d{2})$/.exec(time);
  return m ? (m[1] as string) : '+00:00';
}

/** The EPCIS identifiers Rootline uses: URNs in its own namespace (plants are instances, seed lots classes). */
export const epcisIds = {
  plant: (id: string) => `urn:rootline:plant:${id}`,
  seedLot: (id: string) => `urn:rootline:seed-lot:${id}`,
  event: (id: string) => `urn:rootline:transport-event:${id}`,
};

/** A `transport.completed` event as an EPCIS 2.0 ObjectEvent (JSON-LD, extension fields under `rootline:`). */
export function epcisObjectEvent(row: ExportRow): Record<string, unknown> {
  const p = JSON.parse(row.data) as TransportPayload;
  const step = EPCIS_STEPS[p.kind] ?? { bizStep: 'other', disposition: 'unknown' };
  return {
    type: 'ObjectEvent',
    eventTime: p.eventTime,
    eventTimeZoneOffset: timeZoneOffset(p.eventTime),
    recordTime: row.occurredAt,
    eventID: epcisIds.event(p.eventId),
    epcList: p.plantId ? [epcisIds.plant(p.plantId)] : [],
    ...(p.seedLotId ? { quantityList: [{ epcClass: epcisIds.seedLot(p.seedLotId) }] } : {}),
    action: p.kind === 'planting' ? 'ADD' : 'OBSERVE',
    bizStep: step.bizStep,
    disposition: step.disposition,
    'rootline:kind': p.kind,
    'rootline:transportMode': p.transportMode,
    'rootline:distanceKm': p.distanceKm,
    'rootline:kgCo2e': p.kgCo2e,
    ...(p.corrects ? { 'rootline:corrects': epcisIds.event(p.corrects) } : {}),
  };
}

/** What comes before the first event of a document. */
export function exportPrologue(format: ExportFormat, creationDate: string, namespace: string): string {
  if (format === 'csv') return CSV_HEADER;
  if (format === 'json') return '[';
  const context = ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld', { rootline: namespace }];
  const head = JSON.stringify({ '@context': context, type: 'EPCISDocument', schemaVersion: '2.0', creationDate });
  return `${head.slice(0, -1)},"epcisBody":{"eventList":[`;
}

/** What follows the last event. */
export function exportEpilogue(format: ExportFormat): string {
  if (format === 'csv') return '';
  if (format === 'json') return '\n]\n';
  return '\n]}}\n';
}

/** One event in the format, with the separator that precedes it unless it is the first of the document. */
export function exportItem(format: ExportFormat, row: ExportRow, first: boolean): string {
  if (format === 'csv') return csvLine(row);
  const sep = first ? '\n' : ',\n';
  return sep + (format === 'json' ? jsonItem(row) : JSON.stringify(epcisObjectEvent(row)));
}

/**
 * At least the bytes the text takes inside a JSON string (quotes and backslashes gain a backslash, control characters
 * may become `\u00XX`): what a piece of an export costs in a bus message.
 */
export function encodedSize(text: string): number {
  let extra = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) extra += 5;
    else if (c === 0x22 || c === 0x5c) extra += 1;
  }
  return Buffer.byteLength(text) + extra;
}
