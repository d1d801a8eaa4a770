import { withBase } from '@rootline/host';
import { type Static, Type } from '@sinclair/typebox';

/** Settings of demand: the shared base settings and its own. */
export const DemandConfig = withBase({
  /**
   * Key of the noise of published demand (docs/privacy.md): whoever knows it can subtract the noise. Unset: derived
   * from JWT_SECRET (embedded mode has one), else drawn at start (the noise of a week then changes at restart).
   */
  DEMAND_NOISE_KEY: Type.Optional(Type.String({ minLength: 32 })),
  JWT_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        "The gateway's JWT_SECRET: the key of demand's noise is derived from it unless DEMAND_NOISE_KEY is set",
    }),
  ),
  MATCH_RUNS_PER_DAY: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 10,
    description: 'Runs of matching a grower may make per crop (or for all crops) in 24 hours; ADMINs are not limited',
  }),
  SUPPLIES_PER_DAY: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 10,
    description: 'Supply commitments a grower may make per crop in 24 hours; ADMINs are not limited',
  }),
});
export type DemandConfig = Static<typeof DemandConfig>;
