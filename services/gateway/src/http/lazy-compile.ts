import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

/**
 * Request validators compiled on their first use instead of at start-up. Fastify compiles every route's
 * validators and response serializers before it listens; for the gateway's routes that is most of a warm start
 * (about 0.8 s of CPU, measured with `node --cpu-prof`), while most routes of a process are never called. The
 * first request of a route pays its own compilation (a few milliseconds); every later one runs the compiled
 * function. Ajv reports failures on the function (`validate.errors`), so they are copied onto the wrapper.
 */
export function compiledOnFirstUse(compiler: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> {
  return (route) => {
    let compiled: ReturnType<FastifySchemaCompiler<unknown>> | undefined;
    const validate = ((data: unknown) => {
      compiled ??= compiler(route);
      const result = compiled(data);
      (validate as { errors?: unknown }).errors = (compiled as { errors?: unknown }).errors;
      return result;
    }) as ReturnType<FastifySchemaCompiler<unknown>>;
    return validate;
  };
}

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;

/**
 * Fastify's own response serializers (fast-json-stringify: only the declared properties are written), each
 * compiled on its route's first answer with that status instead of at start-up; see `compiledOnFirstUse`.
 */
export const lazySerializers: SchemaController = {
  compilersFactory: {
    buildSerializer: (externalSchemas, options) => {
      const compile = SerializerSelector()(externalSchemas, options);
      return (route) => {
        let serialize: ((doc: unknown) => string) | undefined;
        return (doc: unknown) => {
          serialize ??= compile(route);
          return serialize(doc);
        };
      };
    },
  },
};
