import { type Static, Type } from '@sinclair/typebox';
import { Text, Timestamp } from './common.js';
import { Defaulted, defineSubject } from './define.js';
import { StringEnum } from './plants.js';

/** Export formats: JSON array, CSV (RFC 4180), a summary of counts, or transport events as EPCIS 2.0 JSON-LD. */
export const EXPORT_FORMATS = ['json', 'csv', 'summary', 'epcis'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Formats that stream event by event (summary is one small document). */
export const STREAMED_EXPORT_FORMATS = ['json', 'csv', 'epcis'] as const;

/** Most kinds one export may name. */
export const EXPORT_MAX_KINDS = 30;

/** An ISO 8601 UTC instant in a query of the transparency API (a pattern, so the bus checks it as the gateway does). */
export const TransparencyInstant = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?Z$',
    maxLength: 40,
    description,
    examples: ['2026-11-01T00:00:00Z'],
  });

/** What an export selects: public events by kind and time range. */
export const ExportQuery = Type.Object({
  type: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 2000,
      pattern: '^[a-z0-9.-]+(,[a-z0-9.-]+)*$',
      description: `Public event kinds, comma-separated (at most ${EXPORT_MAX_KINDS}); all kinds when absent`,
      examples: ['plant.registered,transport.completed'],
    }),
  ),
  from: Type.Optional(
    TransparencyInstant(
      'Occurred at or after (ISO 8601 UTC); with `to`, it must be before `to` (else 400 VALIDATION_ERROR)',
    ),
  ),
  to: Type.Optional(TransparencyInstant('Occurred before (ISO 8601 UTC)')),
});
export type ExportQuery = Static<typeof ExportQuery>;

/** Where the next chunk starts: after `after` (a seq), in the snapshot of events up to `until`. */
export const ExportCursor = Type.Object({
  after: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  until: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
});
export type ExportCursor = Static<typeof ExportCursor>;

export const transparencyExportChunk = defineSubject({
  subject: 'transparency.export.chunk',
  request: Type.Object({
    ...ExportQuery.properties,
    format: StringEnum(STREAMED_EXPORT_FORMATS),
    cursor: Type.Optional(ExportCursor),
  }),
  reply: Type.Object({
    text: Type.String({ description: 'The next piece of the document; the pieces concatenated are the export' }),
    count: Type.Integer({ minimum: 0, description: 'Events in this piece' }),
    next: Type.Union([ExportCursor, Type.Null()], { description: 'Ask again with this cursor; null at the end' }),
  }),
  summary: 'One piece of a streamed export of public events',
});

export const ExportSummary = Type.Object({
  from: Type.Union([Timestamp, Type.Null()]),
  to: Type.Union([Timestamp, Type.Null()]),
  kinds: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'The kinds asked for; null for all' }),
  total: Type.Integer({ minimum: 0 }),
  firstOccurredAt: Type.Union([Timestamp, Type.Null()]),
  lastOccurredAt: Type.Union([Timestamp, Type.Null()]),
  firstSeq: Type.Union([Type.Integer(), Type.Null()]),
  lastSeq: Type.Union([Type.Integer(), Type.Null()]),
  byKind: Type.Array(Type.Object({ kind: Type.String(), count: Type.Integer({ minimum: 0 }) })),
  byDay: Type.Array(Type.Object({ day: Type.String({ description: 'YYYY-MM-DD (UTC)' }), count: Type.Integer() })),
});
export type ExportSummary = Static<typeof ExportSummary>;

export const transparencyExportSummary = defineSubject({
  subject: 'transparency.export.summary',
  request: ExportQuery,
  reply: ExportSummary,
  summary: 'Counts of public events by kind and by day',
});

/** The query string of GET /api/transparency/export. */
export const ExportHttpQuery = Type.Object(
  {
    format: Defaulted(
      StringEnum(EXPORT_FORMATS, {
        default: 'json',
        description:
          '`json` (default): a JSON array of events; `csv`: RFC 4180 with a header line; `summary`: counts by kind ' +
          'and day; `epcis`: the `transport.completed` events as an EPCIS 2.0 JSON-LD document',
      }),
    ),
    ...ExportQuery.properties,
  },
  { additionalProperties: false },
);
