/**
 * Optimal ranges per species, in one table. Each species cites where its figures come from (the full list of
 * sources is in docs/environment.md); a species not in the table is scored against FALLBACK_RANGES.
 */

import type { ScoredParameter } from '@rootline/contracts/environment-insights';

/** The parameters the health score looks at (declared in the contracts, which name advice after them). */
export { SCORED_PARAMETERS, type ScoredParameter } from '@rootline/contracts/environment-insights';

export interface Range {
  min: number;
  max: number;
}

export const UNITS: Record<ScoredParameter, string> = {
  'soil.ph': 'pH',
  'climate.temperatureC': '°C',
  'climate.humidityPercent': '%',
  'lighting.dli': 'mol/m²/day',
  'lighting.hoursPerDay': 'h/day',
  'nutrients.ecMsCm': 'mS/cm',
  'watering.ph': 'pH',
};

/**
 * How far outside its range a value may be before it scores 0: the score falls linearly from 100 at the edge of
 * the range to 0 at this distance. Chosen so that 0 means "harmful for almost any crop" (a whole pH unit, 8 °C).
 */
export const TOLERANCE: Record<ScoredParameter, number> = {
  'soil.ph': 1,
  'climate.temperatureC': 8,
  'climate.humidityPercent': 25,
  'lighting.dli': 10,
  'lighting.hoursPerDay': 4,
  'nutrients.ecMsCm': 1,
  'watering.ph': 1,
};

export interface SpeciesRanges {
  commonName: string;
  source: string;
  ranges: Record<ScoredParameter, Range>;
}

/** Irrigation water for almost every crop: slightly acid (same for all species; see docs/environment.md). */
const WATER_PH: Range = { min: 5.5, max: 7 };

/** Ranges by scientific name in lower case. */
export const SPECIES_RANGES: Readonly<Record<string, SpeciesRanges>> = {
  'solanum lycopersicum': {
    commonName: 'tomato',
    source: 'UMN Extension (tomatoes); Resh 2012 (EC); Heuvelink 2018 (climate, light)',
    ranges: {
      'soil.ph': { min: 6.2, max: 6.8 },
      'climate.temperatureC': { min: 21, max: 27 },
      'climate.humidityPercent': { min: 60, max: 80 },
      'lighting.dli': { min: 20, max: 30 },
      'lighting.hoursPerDay': { min: 12, max: 18 },
      'nutrients.ecMsCm': { min: 2, max: 5 },
      'watering.ph': WATER_PH,
    },
  },
  'lactuca sativa': {
    commonName: 'lettuce',
    source: 'Cornell CEA hydroponic lettuce handbook (DLI 17, EC, pH); UMN Extension (lettuce)',
    ranges: {
      'soil.ph': { min: 6, max: 7 },
      'climate.temperatureC': { min: 15, max: 24 },
      'climate.humidityPercent': { min: 50, max: 70 },
      'lighting.dli': { min: 12, max: 17 },
      'lighting.hoursPerDay': { min: 12, max: 16 },
      'nutrients.ecMsCm': { min: 1, max: 1.5 },
      'watering.ph': WATER_PH,
    },
  },
  'ocimum basilicum': {
    commonName: 'basil',
    source: 'Dou et al. 2018, HortScience 53(4) (DLI); UMN Extension (herbs); Resh 2012 (EC)',
    ranges: {
      'soil.ph': { min: 6, max: 7.5 },
      'climate.temperatureC': { min: 20, max: 30 },
      'climate.humidityPercent': { min: 40, max: 70 },
      'lighting.dli': { min: 12, max: 18 },
      'lighting.hoursPerDay': { min: 14, max: 18 },
      'nutrients.ecMsCm': { min: 1, max: 1.6 },
      'watering.ph': WATER_PH,
    },
  },
  'capsicum annuum': {
    commonName: 'pepper',
    source: 'UMN Extension (peppers); Resh 2012 (EC)',
    ranges: {
      'soil.ph': { min: 6, max: 6.8 },
      'climate.temperatureC': { min: 21, max: 29 },
      'climate.humidityPercent': { min: 50, max: 75 },
      'lighting.dli': { min: 20, max: 30 },
      'lighting.hoursPerDay': { min: 12, max: 18 },
      'nutrients.ecMsCm': { min: 1.8, max: 2.7 },
      'watering.ph': WATER_PH,
    },
  },
  'fragaria × ananassa': {
    commonName: 'strawberry',
    source: 'UMN Extension (strawberries); Resh 2012 (EC)',
    ranges: {
      'soil.ph': { min: 5.5, max: 6.5 },
      'climate.temperatureC': { min: 15, max: 26 },
      'climate.humidityPercent': { min: 60, max: 75 },
      'lighting.dli': { min: 17, max: 25 },
      'lighting.hoursPerDay': { min: 10, max: 16 },
      'nutrients.ecMsCm': { min: 1, max: 1.5 },
      'watering.ph': WATER_PH,
    },
  },
  'vaccinium corymbosum': {
    commonName: 'highbush blueberry',
    source: 'MSU Extension (blueberry soil pH 4.5–5.5); UMN Extension (blueberries)',
    ranges: {
      'soil.ph': { min: 4.5, max: 5.5 },
      'climate.temperatureC': { min: 15, max: 27 },
      'climate.humidityPercent': { min: 50, max: 80 },
      'lighting.dli': { min: 20, max: 35 },
      'lighting.hoursPerDay': { min: 12, max: 16 },
      'nutrients.ecMsCm': { min: 0.5, max: 1.5 },
      'watering.ph': { min: 4.5, max: 6.5 },
    },
  },
  'lavandula angustifolia': {
    commonName: 'English lavender',
    source: 'RHS (lavender: alkaline to neutral, well-drained); UMN Extension (herbs)',
    ranges: {
      'soil.ph': { min: 6.5, max: 8 },
      'climate.temperatureC': { min: 15, max: 30 },
      'climate.humidityPercent': { min: 30, max: 60 },
      'lighting.dli': { min: 20, max: 40 },
      'lighting.hoursPerDay': { min: 12, max: 16 },
      'nutrients.ecMsCm': { min: 0.5, max: 1.5 },
      'watering.ph': WATER_PH,
    },
  },
};

/**
 * Generic ranges for a species not in the table: a middle ground of common vegetable and herb crops (most
 * vegetables do well at pH 6.0–7.0 and 15–27 °C). Wide on purpose, so an unknown plant is not warned about what
 * suits it; the answer says `ranges: 'fallback'`.
 */
export const FALLBACK_RANGES: SpeciesRanges = {
  commonName: 'generic crop',
  source: 'Rootline fallback: consensus of the species above and UMN Extension vegetable guidance',
  ranges: {
    'soil.ph': { min: 6, max: 7 },
    'climate.temperatureC': { min: 15, max: 27 },
    'climate.humidityPercent': { min: 40, max: 75 },
    'lighting.dli': { min: 12, max: 30 },
    'lighting.hoursPerDay': { min: 10, max: 16 },
    'nutrients.ecMsCm': { min: 0.8, max: 2.5 },
    'watering.ph': WATER_PH,
  },
};

/** The lookup key of a species: its scientific name, trimmed, in lower case, single-spaced; "x" hybrids as "×". */
export function speciesKey(scientificName: string | null | undefined): string | null {
  if (!scientificName) return null;
  const key = scientificName.trim().toLowerCase().replace(/\s+/g, ' ').replace(/ x /g, ' × ');
  return key === '' ? null : key;
}

/** The ranges a plant is scored against, and whether they are its species' own or the fallback. */
export function rangesFor(species: string | null): { ranges: SpeciesRanges; kind: 'species' | 'fallback' } {
  const own = species ? SPECIES_RANGES[species] : undefined;
  return own ? { ranges: own, kind: 'species' } : { ranges: FALLBACK_RANGES, kind: 'fallback' };
}
