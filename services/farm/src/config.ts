import { withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';

/** The settings of farm: the shared base settings and its own. */
export const FarmConfig = withBase({
  HARVEST_READY_INTERVAL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 300,
    description: 'Time between two runs of the harvest-ready job (one replica runs each)',
  }),
  HARVEST_READY_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 600_000,
    default: 5000,
    description: 'How often each replica checks whether a harvest-ready run is due',
  }),
});
