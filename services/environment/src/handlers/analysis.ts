import { type Analysis, environmentAnalysis } from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { correlationsBySpecies, PAIRS } from '../db/analysis.repo.js';
import { speciesKey } from '../domain/ranges.js';

/**
 * The statistics (some 400 modules of @stdlib) are loaded by the first analysis, not when the platform starts:
 * few processes ever answer one.
 */
let statistics: Promise<typeof import('../domain/correlation.js')> | undefined;

/** The false discovery rate below which a correlation is called significant. */
const ALPHA = 0.05;

/**
 * environment.analysis.get: per species, Pearson's r of every condition against every growth outcome over the
 * plants' current environments, with n, a 95 % Fisher-z interval, a t-test p-value and a Benjamini–Hochberg
 * q-value over every correlation reported. Pairs with fewer than `minSamples` plants are not reported.
 */
export const analyse = (ctx: ServiceContext) =>
  handle(environmentAnalysis, async ({ species, minSamples }) => {
    statistics ??= import('../domain/correlation.js');
    const [{ benjaminiHochberg, pearsonInterval, pearsonPValue }, groups] = await Promise.all([
      statistics,
      correlationsBySpecies(ctx.db, species === undefined ? undefined : (speciesKey(species) ?? '')),
    ]);
    const found: Omit<Analysis['correlations'][number], 'qValue' | 'significant'>[] = [];
    let skipped = 0;
    for (const group of groups) {
      group.pairs.forEach(({ n, r }, i) => {
        if (n < minSamples || r === null) {
          skipped++;
          return;
        }
        const { condition, outcome } = PAIRS[i]!;
        found.push({
          species: group.species,
          condition,
          outcome,
          n,
          r,
          ci95: pearsonInterval(r, n),
          pValue: pearsonPValue(r, n),
        });
      });
    }
    const q = benjaminiHochberg(found.map((c) => c.pValue));
    const correlations = found
      .map((c, i) => ({ ...c, qValue: q[i]!, significant: q[i]! < ALPHA }))
      .sort((a, b) => a.qValue - b.qValue || a.pValue - b.pValue);
    return {
      plants: groups.reduce((sum, g) => sum + g.plants, 0),
      minSamples,
      correction: 'benjamini-hochberg' as const,
      tests: correlations.length,
      skipped,
      correlations,
    };
  });
