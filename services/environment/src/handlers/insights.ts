import {
  type Comparison,
  type EnvironmentData,
  environmentCompare,
  environmentHealthGet,
  environmentRecommendations,
  environmentSimilar,
} from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { FEATURES, featureVector, SIMILARITY_CATEGORIES, SIMILARITY_WEIGHTS, similarity } from '../domain/features.js';
import { healthScore } from '../domain/health.js';
import { recommend } from '../domain/recommendations.js';
import type { SimilaritySearch } from '../jobs/similarity.js';
import { environmentOf } from './plant-facts.js';

const round2 = (x: number) => Math.round(x * 100) / 100;

/** environment.health.get: the plant's environmental health score with its components. */
export const getHealth = (ctx: ServiceContext) =>
  handle(environmentHealthGet, async ({ plantId }, caller) => {
    const { facts, row } = await environmentOf(ctx, ctx.db, caller, plantId);
    return healthScore(plantId, facts.species, row?.current ?? {});
  });

/** environment.recommendations.get: advice with priorities, and the health score it follows from. */
export const getRecommendations = (ctx: ServiceContext) =>
  handle(environmentRecommendations, async ({ plantId }, caller) => {
    const { facts, row } = await environmentOf(ctx, ctx.db, caller, plantId);
    const env = row?.current ?? {};
    return {
      plantId,
      health: healthScore(plantId, facts.species, env),
      recommendations: recommend(facts.species, env),
    };
  });

/** environment.similar.find: the most similar plants, from the replica's in-memory index. */
export const findSimilar = (ctx: ServiceContext, search: SimilaritySearch) =>
  handle(environmentSimilar, async ({ plantId, limit }, caller) => {
    const found = await search.nearest(plantId, limit);
    // Not in the index: a plant without records (empty answer) or an unknown plant (NOT_FOUND from plants).
    if (found.items.length === 0) await environmentOf(ctx, ctx.db, caller, plantId);
    return { items: found.items, meta: { plantId, compared: found.compared } };
  });

const shownValue = (env: EnvironmentData, get: (env: EnvironmentData) => unknown): number | string | null => {
  const v = get(env);
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  return null;
};

/** environment.compare.get: the two environments category by category, and their overall similarity. */
export const comparePlants = (ctx: ServiceContext) =>
  handle(environmentCompare, async ({ plantA, plantB }, caller) => {
    const a = (await environmentOf(ctx, ctx.db, caller, plantA)).row?.current ?? {};
    const b = (await environmentOf(ctx, ctx.db, caller, plantB)).row?.current ?? {};
    const result = similarity(featureVector(a), featureVector(b));
    const categories: Comparison['categories'] = SIMILARITY_CATEGORIES.map((category, c) => {
      const s = result.categories[c] ?? null;
      return {
        category,
        weight: SIMILARITY_WEIGHTS[category],
        similarity: s === null ? null : round2(100 * s),
        differences: FEATURES.filter((f) => f.category === category).map((f) => {
          const va = shownValue(a, f.get);
          const vb = shownValue(b, f.get);
          return {
            parameter: f.parameter,
            a: va,
            b: vb,
            difference: typeof va === 'number' && typeof vb === 'number' ? round2(vb - va) : null,
          };
        }),
      };
    });
    return {
      plantA,
      plantB,
      similarity: result.similarity === null ? null : round2(result.similarity),
      categories,
    };
  });
