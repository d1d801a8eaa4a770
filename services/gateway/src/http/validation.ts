import { CUSTOM_FORMATS } from '@rootline/contracts';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addStandardFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The standard formats, and the contracts' own (`CUSTOM_FORMATS`, checked the same way on the bus). */
function addFormats(ajv: Ajv): Ajv {
  addStandardFormats(ajv);
  for (const [name, test] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, test);
  return ajv;
}

const shared: Options = {
  useDefaults: true,
  // Unknown body fields are refused, not silently dropped: a misspelt optional field is a caller's bug.
  removeAdditional: false,
  allErrors: false,
  // TypeBox schemas carry annotations (examples, descriptions) that strict mode would reject.
  strict: false,
};

/**
 * Validators per request part. Query strings and path parameters arrive as text, so they are converted to
 * the declared types; a JSON body already has types, so it is checked as sent (`42` is not a string).
 */
export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const body = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  const text = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema as object);
}
