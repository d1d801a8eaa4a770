import { isDeepStrictEqual } from 'node:util';
import { namedSchemas } from '@rootline/contracts';

const REF = '#/components/schemas/';
/** Keywords whose values are data, not schemas: a `title` inside an example is the example's. */
const DATA = new Set(['example', 'examples', 'default', 'const', 'enum']);

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** What tells the named schema from a derived one that inherited its title: its properties and required ones. */
function shape(schema: Node): string {
  const keys = isNode(schema.properties) ? Object.keys(schema.properties).sort() : [];
  const required = Array.isArray(schema.required) ? [...schema.required].sort() : [];
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf.length : 0;
  return JSON.stringify([schema.type ?? null, keys, required, variants]);
}

/**
 * Lists every schema the contracts name (`Named`) once under `components.schemas` and replaces each of its
 * occurrences in the document with a `$ref` to it (ADR 106). Route schemas keep the schema itself, so Fastify
 * validates and serialises exactly as before; only the document changes. A schema that inherited a name's title
 * but differs from it (a `Type.Partial` of it, say) stays in place without the title.
 */
export function liftNamedSchemas<T extends { components?: { schemas?: Record<string, unknown> } }>(document: T): T {
  const named = namedSchemas();
  const expected = new Map([...named].map(([name, schema]) => [name, shape(schema as unknown as Node)]));
  const lifted: Record<string, Node> = {};

  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!isNode(value)) return value;
    const node: Node = {};
    for (const [key, child] of Object.entries(value)) node[key] = DATA.has(key) ? child : visit(child);
    const name = node.title;
    if (typeof name !== 'string' || !named.has(name)) return node;
    const first = lifted[name];
    if ((first && isDeepStrictEqual(first, node)) || (!first && shape(node) === expected.get(name))) {
      lifted[name] = node;
      return { $ref: `${REF}${name}` };
    }
    const { title: _, ...variant } = node;
    return variant;
  };

  const { components, ...rest } = document;
  const { schemas = {}, ...otherComponents } = components ?? {};
  const body = visit(rest) as Omit<T, 'components'>;
  const own = Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, visit(v)]));
  return {
    ...body,
    components: { ...otherComponents, schemas: { ...own, ...sortByName(lifted) } },
  } as unknown as T;
}

function sortByName(schemas: Record<string, Node>): Record<string, Node> {
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}
