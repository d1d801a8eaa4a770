import type { ExportFormat } from '@rootline/contracts/transparency-exports';
import {
  type EpcisContext,
  epcisContext,
  epcisObjectEvent as sharedObjectEvent,
  timeZoneOffset,
} from '@rootline/domain';

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
  handlerId: string;
  recipientId: string | null;
  transportMode: string;
  distanceKm: number | null;
  kgCo2e: number | null;
  eventTime: string;
  corrects: string | null;
  epcisEventId?: string;
}

export { timeZoneOffset };

/**
 * A `transport.completed` event as an EPCIS 2.0 ObjectEvent, mapped as the EPCIS query interface maps journey events
 * (`epcisObjectEvent` of `@rootline/domain`, docs/epcis.md): the public event holds no place, quantity or ledger
 * transaction, so the export has no readPoint, bizLocation, quantities or proof bundle link. A captured event is
 * named by the eventID it was captured with.
 */
export function epcisObjectEvent(row: ExportRow, ctx: EpcisContext): Record<string, unknown> {
  const p = JSON.parse(row.data) as TransportPayload;
  return sharedObjectEvent(
    {
      id: p.eventId,
      kind: p.kind,
      plantId: p.plantId,
      seedLotId: p.seedLotId,
      quantity: null,
      eventTime: p.eventTime,
      recordedAt: row.occurredAt,
      from: null,
      to: null,
      transportMode: p.transportMode,
      distanceKm: p.distanceKm ?? null,
      kgCo2e: p.kgCo2e ?? null,
      handlerId: p.handlerId ?? null,
      recipientId: p.recipientId ?? null,
      corrects: p.corrects,
      correctedBy: null,
      txId: null,
      // A captured event keeps the eventID it was captured with (ADR 302), as every EPCIS answer names it.
      eventID: p.epcisEventId ?? null,
    },
    ctx,
  );
}

/** What comes before the first event of a document. */
export function exportPrologue(format: ExportFormat, creationDate: string, publicUrl: string): string {
  if (format === 'csv') return CSV_HEADER;
  if (format === 'json') return '[';
  const context = epcisContext(publicUrl);
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
export function exportItem(format: ExportFormat, row: ExportRow, first: boolean, ctx: EpcisContext): string {
  if (format === 'csv') return csvLine(row);
  const sep = first ? '\n' : ',\n';
  return sep + (format === 'json' ? jsonItem(row) : JSON.stringify(epcisObjectEvent(row, ctx)));
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
