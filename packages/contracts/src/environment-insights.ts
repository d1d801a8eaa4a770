import { type Static, Type } from '@sinclair/typebox';
import { Text } from './common.js';
import { Defaulted, defineSubject } from './define.js';
import { EnvironmentCategorySchema } from './environment.js';
import { PlantId, StringEnum } from './plants.js';

/** What the environment service derives from records: health score, advice, similarity, comparison, analysis. */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description?: string) =>
  Type.Union([t, Type.Null()], description ? { description } : {});

export const OptimalRange = Type.Object({
  min: Type.Number(),
  max: Type.Number(),
  unit: Type.String(),
});

export const ParameterScore = Type.Object({
  parameter: Type.String({ description: 'e.g. "soil.ph"' }),
  value: Type.Number({ description: 'The measured value' }),
  target: OptimalRange,
  score: Type.Number({ minimum: 0, maximum: 100 }),
});

export const HealthScore = Type.Object({
  plantId: PlantId,
  species: Nullable(Type.String(), 'The species key the ranges were looked up with (scientific name, lower case)'),
  ranges: StringEnum(['species', 'fallback'] as const, {
    description: 'species: ranges of this species; fallback: the generic ranges for a species not in the table',
  }),
  score: Nullable(Type.Number({ minimum: 0, maximum: 100 }), 'Weighted mean of the components; null if none'),
  components: Type.Array(
    Type.Object({
      category: EnvironmentCategorySchema,
      weight: Type.Number(),
      score: Type.Number({ minimum: 0, maximum: 100 }),
      parameters: Type.Array(ParameterScore),
    }),
  ),
});
export type HealthScore = Static<typeof HealthScore>;

export const RECOMMENDATION_PRIORITIES = ['high', 'medium', 'low'] as const;

/** The parameters the health score looks at and advice is given on, as `category.field` of an environment record. */
export const SCORED_PARAMETERS = [
  'soil.ph',
  'climate.temperatureC',
  'climate.humidityPercent',
  'lighting.dli',
  'lighting.hoursPerDay',
  'nutrients.ecMsCm',
  'watering.ph',
] as const;
export type ScoredParameter = (typeof SCORED_PARAMETERS)[number];

/** Where a parameter stands: below its range, above it, or never measured. */
export const ADVICE_KINDS = ['too-low', 'too-high', 'unmeasured'] as const;
export type AdviceKind = (typeof ADVICE_KINDS)[number];

/** A piece of advice by its code, `<parameter>.<kind>` (`soil.ph.too-high`): one sentence each, in every language. */
export type AdviceCode = `${ScoredParameter}.${AdviceKind}`;
export const ADVICE_CODES: readonly AdviceCode[] = SCORED_PARAMETERS.flatMap((p) =>
  ADVICE_KINDS.map((k): AdviceCode => `${p}.${k}`),
);
export const adviceCode = (parameter: ScoredParameter, kind: AdviceKind): AdviceCode => `${parameter}.${kind}`;

export const AdviceParams = Type.Object(
  {
    parameter: StringEnum(SCORED_PARAMETERS),
    kind: StringEnum(ADVICE_KINDS),
    measured: Nullable(Type.Number(), 'null when the parameter was never recorded'),
    min: Type.Number({ description: 'Lower end of the optimal range' }),
    max: Type.Number({ description: 'Upper end of the optimal range' }),
    unit: Type.String({ description: 'The unit of the values, a symbol (`pH`, `°C`, `%`, `mol/m²/day`)' }),
  },
  { description: 'The values a sentence for the code may use' },
);

export const Recommendation = Type.Object(
  {
    priority: StringEnum(RECOMMENDATION_PRIORITIES, {
      description: 'high: far outside the range (score below 50); medium: outside it; low: not measured',
    }),
    category: EnvironmentCategorySchema,
    parameter: StringEnum(SCORED_PARAMETERS),
    measured: Nullable(Type.Number(), 'null when the parameter was never recorded'),
    target: OptimalRange,
    code: StringEnum(ADVICE_CODES, {
      description:
        'The advice as a stable code, `<parameter>.<kind>` with kind `too-low`, `too-high` or `unmeasured`: ' +
        'an app words it in its reader’s language from the code and `params` (docs/languages.md)',
      examples: ['soil.ph.too-high'],
    }),
    params: AdviceParams,
    advice: Type.String({ description: 'What to do, in English (the sentence for `code`)' }),
    reason: Type.String({ description: 'Why, with the range and its source, in English' }),
  },
  {
    examples: [
      {
        priority: 'high',
        category: 'soil',
        parameter: 'soil.ph',
        measured: 7,
        target: { min: 4.5, max: 5.5, unit: 'pH' },
        code: 'soil.ph.too-high',
        params: { parameter: 'soil.ph', kind: 'too-high', measured: 7, min: 4.5, max: 5.5, unit: 'pH' },
        advice: 'Lower the soil pH: add elemental sulfur or an acidic mulch (pine needles, peat) and re-test',
        reason:
          '7 pH is above the optimal range 4.5–5.5 pH for highbush blueberry (MSU Extension (blueberry soil pH 4.5–5.5); UMN Extension (blueberries))',
      },
    ],
  },
);
export type Recommendation = Static<typeof Recommendation>;

export const Recommendations = Type.Object({
  plantId: PlantId,
  health: HealthScore,
  recommendations: Type.Array(Recommendation, { description: 'Highest priority first' }),
});
export type Recommendations = Static<typeof Recommendations>;

export const SIMILAR_LIMITS = { defaultLimit: 10, maxLimit: 100 } as const;

export const SimilarQuery = Type.Object({
  plantId: PlantId,
  limit: Defaulted(
    Type.Integer({
      minimum: 1,
      maximum: SIMILAR_LIMITS.maxLimit,
      default: SIMILAR_LIMITS.defaultLimit,
      description: `Plants to return (default ${SIMILAR_LIMITS.defaultLimit}, at most ${SIMILAR_LIMITS.maxLimit})`,
    }),
  ),
});

export const SimilarPlant = Type.Object({
  plantId: PlantId,
  species: Nullable(Type.String()),
  similarity: Type.Number({ minimum: 0, maximum: 100 }),
  sharedCategories: Type.Array(EnvironmentCategorySchema, { description: 'Categories both plants have' }),
});

/** What the similar plants carry about the search (`meta` of the HTTP answer). */
export const SimilarPlantsMeta = Type.Object({
  plantId: PlantId,
  compared: Type.Integer({ minimum: 0, description: 'Plants with an environment the plant was compared with' }),
});

export const SimilarPlants = Type.Object({
  items: Type.Array(SimilarPlant, { description: 'Most similar first; ties by plant id' }),
  meta: SimilarPlantsMeta,
});
export type SimilarPlants = Static<typeof SimilarPlants>;

export const CompareQuery = Type.Object({ plantA: PlantId, plantB: PlantId });

export const CategoryComparison = Type.Object({
  category: EnvironmentCategorySchema,
  weight: Type.Number(),
  similarity: Nullable(Type.Number({ minimum: 0, maximum: 100 }), 'null when not both plants have this category'),
  differences: Type.Array(
    Type.Object({
      parameter: Type.String(),
      a: Nullable(Type.Union([Type.Number(), Type.String()])),
      b: Nullable(Type.Union([Type.Number(), Type.String()])),
      difference: Nullable(Type.Number(), 'b − a for numbers; null for categories or when one is missing'),
    }),
  ),
});

export const Comparison = Type.Object({
  plantA: PlantId,
  plantB: PlantId,
  similarity: Nullable(Type.Number({ minimum: 0, maximum: 100 }), 'null when they share no category'),
  categories: Type.Array(CategoryComparison),
});
export type Comparison = Static<typeof Comparison>;

export const ANALYSIS_CONDITIONS = [
  'soil.ph',
  'lighting.hoursPerDay',
  'lighting.dli',
  'climate.temperatureC',
  'climate.humidityPercent',
  'watering.frequencyPerWeek',
  'watering.ph',
  'nutrients.ecMsCm',
] as const;
export const ANALYSIS_OUTCOMES = ['growth.healthScore', 'growth.growthRateCmPerWeek', 'growth.heightCm'] as const;

export const AnalysisQuery = Type.Object({
  species: Type.Optional(
    Text({ minLength: 1, maxLength: 200, description: 'Only this species (scientific name, any case)' }),
  ),
  minSamples: Defaulted(
    Type.Integer({
      minimum: 4,
      maximum: 1_000_000,
      default: 10,
      description: 'Fewest plants a correlation is computed from (default 10)',
    }),
  ),
});

export const Correlation = Type.Object({
  species: Type.String(),
  condition: StringEnum(ANALYSIS_CONDITIONS),
  outcome: StringEnum(ANALYSIS_OUTCOMES),
  n: Type.Integer({ description: 'Plants with both values' }),
  r: Type.Number({ description: 'Pearson correlation coefficient' }),
  ci95: Type.Object({ low: Type.Number(), high: Type.Number() }, { description: 'Fisher z interval' }),
  pValue: Type.Number({ description: 'Two-sided, t test with n − 2 degrees of freedom' }),
  qValue: Type.Number({ description: 'Benjamini–Hochberg adjusted p over every test in this answer' }),
  significant: Type.Boolean({ description: 'qValue < 0.05' }),
});

export const Analysis = Type.Object({
  plants: Type.Integer({ description: 'Plants with an environment in the analysed species' }),
  minSamples: Type.Integer(),
  correction: Type.Literal('benjamini-hochberg'),
  tests: Type.Integer({ description: 'Correlations computed (the family the correction is over)' }),
  skipped: Type.Integer({ description: 'Pairs with fewer than minSamples plants or a constant value' }),
  correlations: Type.Array(Correlation, { description: 'Smallest qValue first' }),
});
export type Analysis = Static<typeof Analysis>;

export const environmentHealthGet = defineSubject({
  subject: 'environment.health.get',
  request: Type.Object({ plantId: PlantId }),
  reply: HealthScore,
  summary: 'Environmental health score of a plant with its components',
});

export const environmentRecommendations = defineSubject({
  subject: 'environment.recommendations.get',
  request: Type.Object({ plantId: PlantId }),
  reply: Recommendations,
  summary: 'Advice for a plant, each with a priority',
});

export const environmentSimilar = defineSubject({
  subject: 'environment.similar.find',
  request: SimilarQuery,
  reply: SimilarPlants,
  summary: 'Plants with similar conditions',
});

export const environmentCompare = defineSubject({
  subject: 'environment.compare.get',
  request: CompareQuery,
  reply: Comparison,
  summary: 'The environments of two plants side by side',
});

export const environmentAnalysis = defineSubject({
  subject: 'environment.analysis.get',
  request: AnalysisQuery,
  reply: Analysis,
  summary: 'Network-wide correlation between conditions and growth, by species',
});
