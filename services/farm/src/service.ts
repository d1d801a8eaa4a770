import { fileURLToPath } from 'node:url';
import type { ServiceModule } from '@rootline/host';
import { FarmConfig } from './config.js';
import { farmLedger, type HarvestRecord } from './db/ledger.js';
import { ensureShippedRecipes } from './db/recipes.repo.js';
import { outbox } from './db/schema.js';
import { SHIPPED_RECIPES } from './domain/recipes.js';
import { getAnalytics } from './handlers/analytics.js';
import { failBatchHandler, getBatch, listBatches, startBatch } from './handlers/batch.js';
import { addZone, getFarm, getZones, listOwnedFarms, registerFarm } from './handlers/farm.js';
import { harvestBatch } from './handlers/harvest.js';
import { listReadings, recordReadings } from './handlers/readings.js';
import { createRecipe, getRecipes } from './handlers/recipe.js';
import { fillFarmPlaces } from './jobs/backfill-places.js';
import { createHarvestReadyRunner } from './jobs/harvest-ready.js';

/** farm: vertical farms, zones, growing recipes, crop batches, environment readings, harvests and analytics. */
export const service: ServiceModule<typeof FarmConfig, HarvestRecord> = {
  name: 'farm',
  version: '0.2.0',
  config: FarmConfig,
  db: { schema: 'farm', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  ledger: farmLedger,
  async create(ctx) {
    await ensureShippedRecipes(ctx.db, SHIPPED_RECIPES, ctx.clock.now());
    const harvestReady = createHarvestReadyRunner({
      db: ctx.db,
      outbox: ctx.outbox,
      log: ctx.log,
      clock: ctx.clock,
      intervalMs: ctx.config.HARVEST_READY_INTERVAL_SECONDS * 1000,
      pollMs: ctx.config.HARVEST_READY_POLL_MS,
      metrics: ctx.metrics,
    });
    let stopping = false;
    let backfill: Promise<void> = Promise.resolve();
    return {
      handlers: [
        registerFarm(ctx),
        getFarm(ctx),
        listOwnedFarms(ctx),
        addZone(ctx),
        getZones(ctx),
        getRecipes(ctx),
        createRecipe(ctx),
        startBatch(ctx),
        getBatch(ctx),
        listBatches(ctx),
        failBatchHandler(ctx, ctx.ledger),
        recordReadings(ctx),
        listReadings(ctx),
        harvestBatch(ctx, ctx.ledger),
        getAnalytics(ctx),
      ],
      subscribers: [],
      jobs: [harvestReady],
      start: async () => {
        backfill = fillFarmPlaces(ctx, () => stopping);
      },
      stop: async () => {
        stopping = true;
        await backfill;
      },
    };
  },
};
