import type { FarmCrop, GrowingRecipe, PhaseTargets, RecipeOutcomes, RecipePhaseName } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import { cycleDays, dli } from '../domain/batch-state.js';
import type { RecipeSeed } from '../domain/recipes.js';
import { batches, harvests, recipes, zones } from './schema.js';

export type RecipeRow = typeof recipes.$inferSelect;
export type StoredPhase = { phase: RecipePhaseName; days: number; targets: PhaseTargets };

/** Inserts the shipped recipes that are missing (a restart or a second replica changes nothing). */
export async function ensureShippedRecipes(db: Db, seeds: readonly RecipeSeed[], now: Date): Promise<void> {
  await db
    .insert(recipes)
    .values(
      seeds.map((s) => ({
        id: s.id,
        name: s.name,
        crop: s.crop,
        version: 1,
        parentId: null,
        authorId: null,
        phases: s.phases,
        sources: s.sources,
        createdAt: now.toISOString(),
      })),
    )
    .onConflictDoNothing({ target: recipes.id });
}

export async function insertRecipe(db: Db, row: typeof recipes.$inferInsert): Promise<void> {
  await db.insert(recipes).values(row);
}

export async function findRecipeRow(db: Db, id: string): Promise<RecipeRow | undefined> {
  const [row] = await db.select().from(recipes).where(eq(recipes.id, id)).limit(1);
  return row;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : null);

/** Outcomes of each recipe's batches: counts, success rate, yield per occupied m², mean cycle days. */
export async function recipeOutcomes(db: Db, ids: readonly string[]): Promise<Map<string, RecipeOutcomes>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      recipeId: batches.recipeId,
      batches: sql<number>`count(*)::int`,
      harvested: sql<number>`count(*) filter (where ${batches.status} = 'harvested')::int`,
      failed: sql<number>`count(*) filter (where ${batches.status} = 'failed')::int`,
      // Area a batch occupies: the zone's area times the share of its plant sites the batch uses.
      yieldPerM2: sql<
        number | null
      >`avg(${harvests.yieldKg} / nullif(${zones.areaM2} * least(1, ${batches.plantCount}::float8 / ${zones.capacity}), 0))`,
      cycleDays: sql<number | null>`avg(extract(epoch from (${harvests.harvestedAt} - ${batches.startedAt})) / 86400)`,
    })
    .from(batches)
    .leftJoin(harvests, eq(harvests.batchId, batches.id))
    .leftJoin(zones, eq(zones.id, batches.zoneId))
    .where(inArray(batches.recipeId, [...ids]))
    .groupBy(batches.recipeId);
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 100) / 100);
  return new Map(
    rows.map((r) => [
      r.recipeId,
      {
        batches: r.batches,
        harvested: r.harvested,
        failed: r.failed,
        successRate: ratio(r.harvested, r.harvested + r.failed),
        yieldPerM2: round(r.yieldPerM2),
        cycleDays: round(r.cycleDays),
      },
    ]),
  );
}

const NO_OUTCOMES: RecipeOutcomes = {
  batches: 0,
  harvested: 0,
  failed: 0,
  successRate: null,
  yieldPerM2: null,
  cycleDays: null,
};

export function toRecipe(row: RecipeRow, outcomes: RecipeOutcomes = NO_OUTCOMES): GrowingRecipe {
  const phases = row.phases as StoredPhase[];
  return {
    id: row.id,
    name: row.name,
    crop: row.crop as FarmCrop,
    version: row.version,
    parentId: row.parentId,
    authorId: row.authorId,
    phases: phases.map((p) => ({
      ...p,
      dli: dli((p.targets.ppfd.min + p.targets.ppfd.max) / 2, p.targets.photoperiodHours),
    })),
    cycleDays: cycleDays(phases),
    sources: row.sources as string[],
    outcomes,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export async function findRecipe(db: Db, id: string): Promise<GrowingRecipe | undefined> {
  const row = await findRecipeRow(db, id);
  if (!row) return undefined;
  return toRecipe(row, (await recipeOutcomes(db, [id])).get(id));
}

/** A page of recipes, optionally of one crop, by crop then id (shipped recipes first within a crop). */
export async function listRecipes(
  db: Db,
  crop: FarmCrop | undefined,
  offset: number,
  limit: number,
): Promise<{ items: GrowingRecipe[]; total: number }> {
  const where = crop ? eq(recipes.crop, crop) : undefined;
  const [rows, [c]] = await Promise.all([
    db
      .select()
      .from(recipes)
      .where(where)
      .orderBy(asc(recipes.crop), asc(recipes.version), asc(recipes.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(recipes).where(where),
  ]);
  const outcomes = await recipeOutcomes(
    db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toRecipe(r, outcomes.get(r.id))), total: Number(c?.n ?? 0) };
}
