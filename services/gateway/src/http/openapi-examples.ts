import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Success answers recorded by the example walk (`scripts/test/example-walk.http.test.ts` with `RECORD_EXAMPLES=1`),
 * real answers of the documented request examples with secrets blanked. The document shows each where an
 * operation has no hand-written response example; the walk checks them against the schemas on every run.
 */
export const RESPONSE_EXAMPLES_FILE = fileURLToPath(new URL('../../openapi/response-examples.json', import.meta.url));

export interface RecordedExample {
  status: number;
  /** The media type of the answer. */
  type: string;
  value: unknown;
}

let loaded: Readonly<Record<string, RecordedExample>> | undefined;

/** The recorded answers by operationId (read once). */
export function recordedExamples(): Readonly<Record<string, RecordedExample>> {
  loaded ??= JSON.parse(readFileSync(RESPONSE_EXAMPLES_FILE, 'utf8')) as Record<string, RecordedExample>;
  return loaded;
}
