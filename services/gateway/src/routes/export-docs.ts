import { type TSchema, Type } from '@sinclair/typebox';

/**
 * The one rule of every export (`/api/transparency/export`, `/api/analytics/export`), quoted in each route's
 * description: an export is a file to save, not an API answer.
 */
export const EXPORT_RULE =
  '**Exports are downloads.** A successful export answers 200 with the file itself, not the JSON envelope: ' +
  '`Content-Disposition: attachment; filename="rootline-<dataset>….<ext>"`, `Cache-Control: no-store` and the ' +
  'file’s media type with its charset. `format=json` is one JSON array (`application/json; charset=utf-8`) with ' +
  'one object per row, the same objects for every export whatever its size; `format=csv` is RFC 4180 text ' +
  '(`text/csv; charset=utf-8`) with a header line. A refused export (bad filter, no permission) answers the error ' +
  'envelope as every operation does.';

/** Response headers of a download, as the OpenAPI document lists them. */
const DOWNLOAD_HEADERS = {
  // As JSON schemas: the document generator puts each under the header's `schema`.
  'Content-Disposition': {
    type: 'string',
    description: 'Always `attachment`, with the suggested file name',
    examples: ['attachment; filename="rootline-events.json"'],
  },
  'Cache-Control': { type: 'string', const: 'no-store', description: 'Always `no-store`' },
};

/**
 * The success response of a download: each media type the export may answer with its schema, and the download
 * headers. Fastify sends the file as it is (a string, or the raw stream); the schemas only document it.
 */
export function downloadResponse(media: Record<string, TSchema>): object {
  return {
    description: 'The file, as a download',
    headers: DOWNLOAD_HEADERS,
    content: Object.fromEntries(Object.entries(media).map(([type, schema]) => [type, { schema }])),
  };
}

/** A CSV file in the document. */
export const CsvFile = (example: string) =>
  Type.String({ description: 'RFC 4180 text with a header line', examples: [example] });
