import { type Static, Type } from '@sinclair/typebox';

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

export const Location = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Decimal degrees, -90 to 90' }),
    longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Decimal degrees, -180 to 180' }),
    city: Type.Optional(Type.String({ maxLength: 120 })),
    country: Type.Optional(Type.String({ maxLength: 120 })),
  },
  { additionalProperties: false },
);
export type Location = Static<typeof Location>;

export const Owner = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 120 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type Owner = Static<typeof Owner>;
