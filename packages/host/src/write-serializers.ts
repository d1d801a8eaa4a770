// Run by `pnpm build` after TypeScript: writes the serializer of every subject's reply into dist/serializers
// (see `writeSerializers`), so a compiled service writes its replies without loading Ajv.
import * as contracts from '@rootline/contracts';
import { SERVICE_NAMES, statusSubject } from '@rootline/contracts';
import type { TSchema } from '@sinclair/typebox';
import { writeSerializers } from './serializers.js';

type Subject = { subject: string; reply: TSchema };
const isSubject = (v: unknown): v is Subject =>
  typeof v === 'object' && v !== null && typeof (v as Subject).subject === 'string' && 'reply' in v && 'request' in v;

/** Every subject the contracts declare: exported one by one, in records of subjects, and each service's status. */
function subjects(): Subject[] {
  const found = new Map<string, Subject>();
  for (const value of Object.values(contracts)) {
    if (isSubject(value)) found.set(value.subject, value);
    else if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) if (isSubject(inner)) found.set(inner.subject, inner);
    }
  }
  for (const name of SERVICE_NAMES) found.set(statusSubject(name).subject, statusSubject(name));
  return [...found.values()];
}

const written = writeSerializers(subjects());
process.stdout.write(`wrote ${written} reply serializers\n`);
