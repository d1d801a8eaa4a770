import { FormatRegistry, Kind, type SchemaOptions, type Static, Type, TypeRegistry } from '@sinclair/typebox';
import { Named } from './define.js';

/**
 * Text that PostgreSQL, JSON and every client can hold: no U+0000 and no lone UTF-16 surrogate. Both are valid in
 * a JSON string but not in jsonb or UTF-8, so they used to reach the database and fail there with a 500.
 */
export const TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/** The text pattern with a lookahead that must also hold, e.g. "somewhere a letter" (read with the `u` flag). */
export function textPatternWith(lookahead: string): string {
  return `^(?=${lookahead})${TEXT_PATTERN.slice(1)}`;
}

/** Text as above with at least one character that is not white space: names, titles, labels. */
export const NAME_PATTERN = textPatternWith('[\\s\\S]*\\S');

/**
 * A whole number with its thousands grouped by commas (`1000` → `1,000`), for text written when a module loads (schema
 * descriptions). Not `toLocaleString`: the first use of Intl in a process reads ICU's locale data, some 6 MiB of the
 * node binary's pages made resident in every service process.
 */
export function groupedDigits(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number: ${n}`);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

const patterns = new Map<string, RegExp>();
function unicodePattern(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) {
    // With the `u` flag, as ajv compiles JSON Schema patterns: a surrogate pair is one code point, so the
    // surrogate range matches only a lone half. TypeBox's own pattern check has no `u` flag.
    re = new RegExp(source, 'u');
    patterns.set(source, re);
  }
  return re;
}

interface TextSchema {
  pattern: string;
  format?: string;
  minLength?: number;
  maxLength: number;
}

TypeRegistry.Set<TextSchema>('Text', (schema, value) => {
  if (typeof value !== 'string') return false;
  // Lengths in code points, as JSON Schema (and ajv) count them.
  const length = value.length > schema.maxLength ? [...value].length : value.length;
  if (length > schema.maxLength || (schema.minLength !== undefined && [...value].length < schema.minLength)) {
    return false;
  }
  if (schema.format !== undefined && !FormatRegistry.Get(schema.format)?.(value)) return false;
  return unicodePattern(schema.pattern).test(value);
});

/**
 * The string formats contracts use, for checks on the bus (TypeBox knows none by itself; without these, every
 * event carrying a timestamp failed its consumer's schema check). Same rules as ajv-formats in the gateway:
 * RFC 3339 date-time with a time zone, and the common shape of an email address.
 */
const DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));
}
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (v) => EMAIL.test(v));

/**
 * Formats of our own, each a test of a whole value: here (checks on the bus) and in the gateway's validator alike.
 * `letter-or-digit`: somewhere a letter or a digit of any script. A format, not a `\p{L}` pattern: a pattern with
 * Unicode property escapes means something else (or nothing) to validators that do not read it with the `u` flag,
 * while a validator that does not know a format lets the value through, so the OpenAPI document stays portable.
 */
export const CUSTOM_FORMATS: Readonly<Record<string, RegExp>> = { 'letter-or-digit': /[\p{L}\p{N}]/u };
for (const [name, test] of Object.entries(CUSTOM_FORMATS)) {
  if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, (v) => test.test(v));
}

/** Options of a free-text string: a maximum length is required, a minimum of 1 or more also refuses blank text. */
export interface TextOptions extends SchemaOptions {
  maxLength: number;
  minLength?: number;
  /** A stricter rule (an ECMAScript pattern, read with the `u` flag); it must also refuse U+0000 and lone surrogates. */
  pattern?: string;
  /** A format of `CUSTOM_FORMATS` the text must also have (e.g. `letter-or-digit`). */
  format?: keyof typeof CUSTOM_FORMATS;
}

/**
 * A free-text string of a contract. JSON Schema `pattern` and lengths (so the gateway's validator and the OpenAPI
 * document state the rule), checked on the bus by the `Text` kind registered above with the same `u`-flag pattern.
 * Every string a client sends is a `Text`, an identifier pattern, a format or an enum (ADR 024).
 */
export function Text(options: TextOptions) {
  const pattern = options.pattern ?? ((options.minLength ?? 0) > 0 ? NAME_PATTERN : TEXT_PATTERN);
  return Type.Unsafe<string>({ [Kind]: 'Text', type: 'string', ...options, pattern });
}

/** The largest value of a PostgreSQL `integer` column: bound of every query parameter stored or compared as one. */
export const INT4_MAX = 2_147_483_647;

/** ISO 8601 UTC timestamp string. */
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp' });

/** Opaque identifier with a type prefix, e.g. `plt_…`. */
export function PrefixedId(prefix: string, description: string) {
  return Type.String({
    pattern: `^${prefix}_[A-Za-z0-9]{10,40}$`,
    description,
    examples: [`${prefix}_01HZX3K6Q2W8N4B7T5R9V0C1MD`],
  });
}

/**
 * A seed lot: a lot recorded in the seed inventory has a minted id (`lot_` + 26 characters, ADR 270); a journey
 * event may still name a lot chosen by the grower (EPCIS class-level identification: a lot, not a single item).
 */
export const SeedLotId = Type.String({
  pattern: '^lot_[A-Za-z0-9-]{3,60}$',
  description: 'Seed lot identifier, `lot_` and 3–60 letters, digits or hyphens (minted for an inventory lot)',
  examples: ['lot_tomato-2026-a'],
});

export const Location = Named(
  'Location',
  Type.Object(
    {
      latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Decimal degrees, -90 to 90' }),
      longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Decimal degrees, -180 to 180' }),
      city: Type.Optional(Text({ maxLength: 120 })),
      country: Type.Optional(Text({ maxLength: 120 })),
    },
    { additionalProperties: false },
  ),
);
export type Location = Static<typeof Location>;

export const Owner = Named(
  'Owner',
  Type.Object(
    {
      id: Text({ minLength: 1, maxLength: 120 }),
      name: Text({ minLength: 1, maxLength: 200 }),
    },
    { additionalProperties: false },
  ),
);
export type Owner = Static<typeof Owner>;

/**
 * Set by the gateway on a party without an account, whatever the body says: the caller's account name, as who stated
 * the party's name (ADR 176); absent for an account.
 */
const NameStatedBy = Type.Optional(
  Text({
    minLength: 1,
    maxLength: 200,
    description:
      'Set by the gateway, whatever the body says: the caller’s account name when the party has no account (its name ' +
      'is then as stated), absent for an account',
  }),
);

/**
 * A person or party a write names. For an account the name may be left out: it is the account's display name, filled
 * in; another name is refused. A party without an account (a shop, a co-op: an id no account has) is recorded with
 * the name the caller states (ADR 176).
 */
export const PartyInput = Named(
  'PartyInput',
  Type.Object(
    {
      id: Text({ minLength: 1, maxLength: 120, description: 'An account id, or the id of a party without one' }),
      name: Type.Optional(
        Text({
          minLength: 1,
          maxLength: 200,
          description: 'Default and only accepted value for an account: its display name. Required otherwise',
        }),
      ),
      nameStatedBy: NameStatedBy,
    },
    { additionalProperties: false },
  ),
);
export type PartyInput = Static<typeof PartyInput>;

/**
 * A party as a read shows it, the one shape of every owner, handler and recipient (ADR 194). `name` is the name the
 * record was written with, on the ledger for ever; the gateway adds what has changed since: `accountName` when the
 * account's display name is now another, and the current name of whoever stated the name of a party without an
 * account (`statedBy`).
 */
export const RecordedParty = Named(
  'RecordedParty',
  Type.Object(
    {
      id: Type.String({ description: 'An account id, or the id of a party without an account' }),
      name: Type.String({
        description:
          'The name the record was written with (on the ledger): an account’s display name at the time, or the name ' +
          'stated for a party without an account',
      }),
      accountName: Type.Optional(
        Type.String({
          description:
            'The account’s current display name, present only when it differs from `name` (a record written before ' +
            'names were bound to accounts, or an account renamed since): show it beside the recorded one',
        }),
      ),
      statedBy: Type.Optional(
        Type.Object(
          {
            id: Type.Union([Type.String(), Type.Null()], {
              description: 'The account that stated the name; null when the record does not say (older records)',
            }),
            name: Type.String({
              description: 'That account’s current display name (as recorded when the account is unknown)',
            }),
          },
          {
            description:
              'Present for a party without an account (a shop, a co-op): who stated its name. Show it as ' +
              '“Green Grocer (stated by Alice)”: the record is a claim by that account, not by the party',
          },
        ),
      ),
    },
    {
      examples: [
        { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', name: 'Alice Hofman' },
        { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', name: 'Alice the Gardener', accountName: 'Alice Hofman' },
        {
          id: 'shop-green-grocer',
          name: 'Green Grocer',
          statedBy: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', name: 'Alice Hofman' },
        },
      ],
    },
  ),
);
export type RecordedParty = Static<typeof RecordedParty>;

/** A peer's name as set in PEERS: lowercase letters, digits and dashes. */
export const PEER_NAME_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$';
export const PeerName = Type.String({
  pattern: PEER_NAME_PATTERN,
  description: 'The peer’s name in this node’s PEERS setting',
  examples: ['north-farm'],
});
