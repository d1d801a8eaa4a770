import { ANALYSIS_CONDITIONS, ANALYSIS_OUTCOMES } from '@rootline/contracts';
import { type Db, executeRows } from '@rootline/db';
import { sql } from 'drizzle-orm';
import { MEASURES } from '../domain/measures.js';

export type Condition = (typeof ANALYSIS_CONDITIONS)[number];
export type Outcome = (typeof ANALYSIS_OUTCOMES)[number];

/** The pairs analysed, in a fixed order: every condition against every outcome. */
export const PAIRS: { condition: Condition; outcome: Outcome }[] = ANALYSIS_CONDITIONS.flatMap((condition) =>
  ANALYSIS_OUTCOMES.map((outcome) => ({ condition, outcome })),
);

/** The element of the `measures` column holding a parameter (1-based); only names from the fixed lists. */
function numberAt(path: Condition | Outcome): string {
  return `measures[${MEASURES.indexOf(path) + 1}]`;
}

export interface SpeciesCorrelations {
  species: string;
  plants: number;
  /** Per pair (same order as PAIRS): plants with both values, and Pearson's r (null for a constant value). */
  pairs: { n: number; r: number | null }[];
}

/**
 * Pearson's r and the pair count of every condition/outcome pair, per species, computed by PostgreSQL's `corr`
 * and `regr_count` aggregates over the `measures` column in one scan (no rows leave the database). A plant without a scientific name is
 * grouped under its common name in lower case.
 */
export async function correlationsBySpecies(db: Db, species?: string): Promise<SpeciesCorrelations[]> {
  const columns = PAIRS.map(({ condition, outcome }, i) => {
    const x = numberAt(condition);
    const y = numberAt(outcome);
    return `regr_count(${y}, ${x})::int as n${i}, corr(${y}, ${x}) as r${i}`;
  }).join(', ');
  const key = sql.raw('coalesce(species, lower(common_name))');
  const rows = await executeRows<Record<string, string | number | null>>(
    db,
    sql`
    select ${key} as species, count(*)::int as plants, ${sql.raw(columns)}
    from environment.plant_environments
    ${species === undefined ? sql`` : sql`where ${key} = ${species}`}
    group by 1 order by 1`,
  );
  return rows.map((row) => ({
    species: String(row.species),
    plants: Number(row.plants),
    pairs: PAIRS.map((_, i) => ({ n: Number(row[`n${i}`]), r: row[`r${i}`] === null ? null : Number(row[`r${i}`]) })),
  }));
}
