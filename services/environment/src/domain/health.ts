import type { EnvironmentCategory, EnvironmentData } from '@rootline/contracts/environment';
import type { HealthScore } from '@rootline/contracts/environment-insights';
import { type Range, rangesFor, SCORED_PARAMETERS, type ScoredParameter, TOLERANCE, UNITS } from './ranges.js';

/** Weight of each scored category in the overall score: climate and light matter most for growth. */
export const HEALTH_WEIGHTS: Partial<Record<EnvironmentCategory, number>> = {
  climate: 0.3,
  lighting: 0.25,
  soil: 0.2,
  watering: 0.15,
  nutrients: 0.1,
};

/** The value of `category.field` in an environment, when it was recorded. */
export function valueAt(env: EnvironmentData, parameter: string): number | undefined {
  const [category, field] = parameter.split('.') as [keyof EnvironmentData, string];
  const value = (env[category] as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'number' ? value : undefined;
}

/** 100 inside the range, falling linearly to 0 at `tolerance` outside it. */
export function parameterScore(value: number, range: Range, tolerance: number): number {
  const distance = value < range.min ? range.min - value : value > range.max ? value - range.max : 0;
  return Math.max(0, 100 * (1 - distance / tolerance));
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * The environmental health score of a plant (0–100): each measured parameter scores against its species' range
 * (`parameterScore`), a category scores the mean of its parameters, and the plant the weighted mean of the
 * categories it has (weights renormalised over them). Null when nothing scored was measured.
 */
export function healthScore(plantId: string, species: string | null, env: EnvironmentData): HealthScore {
  const { ranges, kind } = rangesFor(species);
  const byCategory = new Map<EnvironmentCategory, HealthScore['components'][number]['parameters']>();
  for (const parameter of SCORED_PARAMETERS) {
    const value = valueAt(env, parameter);
    if (value === undefined) continue;
    const category = parameter.split('.')[0] as EnvironmentCategory;
    const range = ranges.ranges[parameter as ScoredParameter];
    const list = byCategory.get(category) ?? [];
    list.push({
      parameter,
      value,
      target: { ...range, unit: UNITS[parameter] },
      score: round(parameterScore(value, range, TOLERANCE[parameter])),
    });
    byCategory.set(category, list);
  }
  const components: HealthScore['components'] = [];
  let weighted = 0;
  let weights = 0;
  for (const [category, parameters] of byCategory) {
    const weight = HEALTH_WEIGHTS[category] ?? 0;
    const score = parameters.reduce((sum, p) => sum + p.score, 0) / parameters.length;
    components.push({ category, weight, score: round(score), parameters });
    weighted += weight * score;
    weights += weight;
  }
  return {
    plantId,
    species,
    ranges: kind,
    score: weights > 0 ? round(weighted / weights) : null,
    components,
  };
}
