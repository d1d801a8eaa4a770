import { AppError, paginate, recipeCreate, recipeList } from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { findRecipe, findRecipeRow, insertRecipe, listRecipes } from '../db/recipes.repo.js';

export const getRecipes = (ctx: ServiceContext) =>
  handle(recipeList, async ({ crop, page, limit }) => {
    const offset = (page - 1) * limit;
    const { items, total } = await listRecipes(ctx.db, crop, offset, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** farm.recipe.create: a new version of a parent recipe, authored by the caller; same crop, version + 1. */
export const createRecipe = (ctx: ServiceContext) =>
  handle(recipeCreate, async (input, call) => {
    const actor = actingUser(call);
    const parent = await findRecipeRow(ctx.db, input.parentId);
    if (!parent) throw notFound('Recipe', input.parentId);
    const seen = new Set<string>();
    for (const [i, p] of input.phases.entries()) {
      if (seen.has(p.phase)) {
        throw new AppError('VALIDATION_ERROR', `phases/${i}/phase: ${p.phase} appears twice`, {
          field: 'phases',
          reason: 'phase-twice',
        });
      }
      seen.add(p.phase);
      for (const key of ['ppfd', 'humidityPct', 'co2Ppm', 'ecMsCm', 'ph'] as const) {
        if (p.targets[key].min > p.targets[key].max) {
          throw new AppError('VALIDATION_ERROR', `phases/${i}/targets/${key}: min is above max`, {
            field: `phases.${i}.targets.${key}`,
            reason: 'min-above-max',
          });
        }
      }
    }
    const id = ctx.newId('rcp', call);
    const existing = await findRecipe(ctx.db, id);
    if (existing) return existing;
    await insertRecipe(ctx.db, {
      id,
      name: input.name,
      crop: parent.crop,
      version: parent.version + 1,
      parentId: parent.id,
      authorId: actor.id,
      phases: input.phases,
      sources: input.sources,
      createdAt: ctx.clock.now().toISOString(),
    });
    return (await findRecipe(ctx.db, id))!;
  });
