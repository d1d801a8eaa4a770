// The whole package, not one module: the catalogue lists the events every contract module declares as it loads.
import { publicEvents } from '@rootline/contracts';
import { type EventDef, publicPayloadOf } from '@rootline/contracts/define';
import type { TSchema } from '@sinclair/typebox';

/** Where the catalogue is written, from the repository root. */
export const EVENT_CATALOGUE = 'docs/event-kinds.md';

function typeOf(s: TSchema): string {
  if (s.enum) return (s.enum as unknown[]).map((v) => `\`${String(v)}\``).join(' \\| ');
  if (s.const !== undefined) return `\`${String(s.const)}\``;
  if (s.anyOf) return (s.anyOf as TSchema[]).map(typeOf).join(' \\| ');
  if (s.type === 'array') return `array of ${typeOf(s.items as TSchema)}`;
  if (s.type === 'object' && s.properties) {
    return `object {${Object.keys(s.properties as object).join(', ')}}`;
  }
  return String(s.type ?? 'any');
}

/** A Markdown table with its columns padded to one width, as the formatter writes them. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

function rows(e: EventDef): string[][] {
  const payload = publicPayloadOf(e);
  const props = (payload.properties ?? {}) as Record<string, TSchema>;
  const required = new Set((payload.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const note = [required.has(name) ? '' : 'optional', s.description ?? ''].filter(Boolean).join('; ');
    return [`\`${name}\``, typeOf(s), note.replaceAll('|', '\\|').replaceAll('\n', ' ')];
  });
}

/**
 * The catalogue of public event kinds, generated from the contracts: each kind with its domain event subject and
 * the fields of its `data`, as the event stream, the history and webhooks carry them.
 */
export function renderEventCatalogue(events = publicEvents()): string {
  const sorted = [...events].sort((a, b) => a.kind.localeCompare(b.kind));
  const out = [
    '# Public event kinds',
    '',
    'Generated from the contracts (`packages/contracts/src/*.ts`, every `defineEvent` with a `kind`) by',
    '`pnpm --filter @rootline/transparency docs:events`; a test fails when it is out of date. These kinds are',
    'served by `GET /api/transparency/events` (server-sent events), `GET /api/transparency/events/history`, and',
    'webhooks. Each event carries `id` (the domain event id), `kind`, `occurredAt` and `data` as listed here. Events',
    'without a kind are internal: they reach the audit log (ADMIN only) and nothing public. Some kinds show only part',
    'of their domain event (offers: no buyer, quantity or price; matches: no consumer or distance); the audit log',
    'keeps the whole.',
    '',
    ...table(
      ['kind', 'domain event'],
      sorted.map((e) => [`[\`${e.kind}\`](#${e.kind.replaceAll('.', '')})`, `\`${e.subject}\``]),
    ),
  ];
  for (const e of sorted) {
    out.push(
      '',
      `## ${e.kind}`,
      '',
      `Domain event \`${e.subject}\`.${e.publicFields ? ' Public form: only the fields below; the audit log keeps the whole.' : ''}`,
      '',
      ...table(['field', 'type', 'note'], rows(e)),
    );
  }
  return `${out.join('\n')}\n`;
}
