import { type Static, Type } from '@sinclair/typebox';
import { Text } from './common.js';
import { defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { StringEnum } from './plants.js';

/** Most places a search by name considers (pages beyond are empty). */
export const GEOCODE_LIMITS = { maxResults: 100 } as const;

export const GeocodeQuery = Type.Object({
  q: Text({
    minLength: 1,
    maxLength: 200,
    description: 'A place as people type it: "zurich", "São Paulo", "Paris, France", "paris, us", "amsterdma"',
    examples: ['Rotterdam'],
  }),
  ...PageQuery.properties,
});
export type GeocodeQuery = Static<typeof GeocodeQuery>;

export const GEOCODE_SOURCES = ['gazetteer', 'geocoder'] as const;

export const GeocodedPlace = Named(
  'GeocodedPlace',
  Type.Object(
    {
      name: Type.String({ description: 'The place’s name, with its accents' }),
      displayName: Type.String({ description: 'Name, country; or the geocoder’s full address' }),
      country: Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Null()], {
        description: 'ISO 3166-1 alpha-2 code',
      }),
      countryName: Type.Union([Type.String(), Type.Null()], { description: 'The country’s English name' }),
      latitude: Type.Number(),
      longitude: Type.Number(),
      population: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'From the gazetteer; null for the geocoder’s answers',
      }),
      match: Type.Union([StringEnum(['exact', 'prefix', 'typo'] as const), Type.Null()], {
        description: 'How the name matched (gazetteer): the whole name, its beginning, or with a typo forgiven',
      }),
      source: StringEnum(GEOCODE_SOURCES, {
        description: 'gazetteer (bundled, on this machine) or geocoder (the configured Nominatim-compatible service)',
      }),
    },
    {
      examples: [
        {
          name: 'Zürich',
          displayName: 'Zürich, Switzerland',
          country: 'CH',
          countryName: 'Switzerland',
          latitude: 47.36667,
          longitude: 8.55,
          population: 341730,
          match: 'exact',
          source: 'gazetteer',
        },
      ],
    },
  ),
);
export type GeocodedPlace = Static<typeof GeocodedPlace>;

export const geocodeSearch = defineSubject({
  subject: 'plants.place.search',
  request: GeocodeQuery,
  reply: Type.Object({ items: Type.Array(GeocodedPlace), pagination: Pagination }),
  summary: 'Places whose name matches a text: the bundled gazetteer, and the configured geocoder',
});
