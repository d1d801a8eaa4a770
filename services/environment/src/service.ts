import { fileURLToPath } from 'node:url';
import type { ServiceModule } from '@rootline/host';
import { EnvironmentConfig } from './config.js';
import { outbox } from './db/schema.js';
import { analyse } from './handlers/analysis.js';
import { comparePlants, findSimilar, getHealth, getRecommendations } from './handlers/insights.js';
import { addRecord, listRecordHistory } from './handlers/records.js';
import { createSimilaritySearch } from './jobs/similarity.js';

/**
 * environment: per-plant environment records in the spec's nine categories, the health score, recommendations,
 * similarity search, comparison and network-wide analysis.
 */
export const service: ServiceModule<typeof EnvironmentConfig> = {
  name: 'environment',
  version: '0.2.0',
  config: EnvironmentConfig,
  db: { schema: 'environment', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  create(ctx) {
    const search = createSimilaritySearch(ctx.db);
    return {
      handlers: [
        addRecord(ctx),
        listRecordHistory(ctx),
        getHealth(ctx),
        getRecommendations(ctx),
        findSimilar(ctx, search),
        comparePlants(ctx),
        analyse(ctx),
      ],
      subscribers: [],
      // Load the index before the first query needs it.
      start: () => search.refresh(),
    };
  },
};
