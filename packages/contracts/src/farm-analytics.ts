import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { defineSubject } from './define.js';
import { FarmId } from './farm.js';

const Ratio = (description: string) => Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description });

/** Figures of one group of batches (the farm, a crop or a recipe) over the period; formulas in docs/farm.md. */
export const FarmFigures = Type.Object({
  batchesStarted: Type.Integer({ minimum: 0 }),
  harvested: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  successRate: Ratio('harvested ÷ (harvested + failed), batches closed in the period'),
  yieldKg: Type.Number({ minimum: 0 }),
  yieldPerM2PerYear: Ratio('kg per m² per year: yield ÷ occupied m²·days × 365'),
  cycleDays: Ratio('Mean days from start to harvest'),
  utilisation: Ratio('Plant-site days used ÷ plant-site days available'),
  readings: Type.Integer({ minimum: 0 }),
  compliance: Ratio('Share of readings with every metric within target'),
});
export type FarmFigures = Static<typeof FarmFigures>;

export const FarmAnalytics = Type.Object({
  farmId: FarmId,
  from: Timestamp,
  to: Timestamp,
  totals: FarmFigures,
  byCrop: Type.Array(Type.Object({ crop: Type.String(), ...FarmFigures.properties })),
  byRecipe: Type.Array(Type.Object({ recipeId: Type.String(), name: Type.String(), ...FarmFigures.properties })),
  zones: Type.Array(
    Type.Object({ zoneId: Type.String(), name: Type.String(), utilisation: Ratio('As above, for the zone') }),
  ),
});
export type FarmAnalytics = Static<typeof FarmAnalytics>;

export const FarmAnalyticsQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      format: 'date-time',
      maxLength: 40,
      description: 'Start of the period (default: `to` − 365 days); must be before `to` (else 400 VALIDATION_ERROR)',
    }),
  ),
  to: Type.Optional(
    Type.String({ format: 'date-time', maxLength: 40, description: 'End of the period (default: now)' }),
  ),
});

export const farmAnalyticsGet = defineSubject({
  subject: 'farm.analytics.get',
  request: Type.Object({ farmId: FarmId, ...FarmAnalyticsQuery.properties }),
  reply: FarmAnalytics,
  summary: 'Yield, cycle times, utilisation, success rate and compliance of a farm over a period',
});
