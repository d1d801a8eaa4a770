import { fileURLToPath } from 'node:url';
import type { SearchHit } from '@rootline/contracts';
import { createNominatim, warmGeocoder } from '@rootline/geocoder';
import { outgoingAgent, type ServiceModule } from '@rootline/host';
import { storageFromConfig } from '@rootline/storage';
import { PlantsConfig } from './config.js';
import { type PlantsLedgerRecord, plantsLedger } from './db/ledger.js';
import { outbox } from './db/schema.js';
import { nearbyPlants, networkStats, ownedPlants, recentPlants, searchPlantsHandler } from './handlers/discovery.js';
import { exportInventoryChunk, getImport, listImportJobs, startImport } from './handlers/imports.js';
import { getLineage } from './handlers/lineage.js';
import {
  analyseLineageHandler,
  controlLineageAgent,
  getLineageAgent,
  listLineageAnomalies,
} from './handlers/lineage-agent.js';
import { searchPlacesHandler } from './handlers/places.js';
import { clonePlant, getPlant, registerAnonymousPlant, registerPlant } from './handlers/plant.js';
import { privacyDistribution } from './handlers/privacy-distribution.js';
import { createSearchCache } from './handlers/search-cache.js';
import { handSeedLot, listSeedHandoffs, receiveSeedHandoff } from './handlers/seed-handoffs.js';
import { getSeedLoan, lendSeedLot, listSeedLoansHandler, returnSeedLoan } from './handlers/seed-loans.js';
import {
  createSeedLot,
  discardSeedLot,
  getSeedLot,
  listGerminationTestsHandler,
  listSeedLotsHandler,
  recordGerminationTest,
  updateSeedLotHandler,
} from './handlers/seed-lots.js';
import { acceptSpecies } from './handlers/species.js';
import {
  acceptTransfer,
  cancelTransfer,
  declineTransfer,
  getOwnershipHistory,
  getSeedLotOwnershipHistory,
  getTransfer,
  listTransfersHandler,
  proposeTransfer,
} from './handlers/transfers.js';
import { fillPlantPlaces } from './jobs/backfill-places.js';
import { createImportWorker } from './jobs/import-worker.js';
import { createLineageAgent } from './jobs/lineage-agent.js';
import { createSearchIndexFeed, recorderReadingChanges } from './jobs/search-index.js';

/**
 * plants: the plant registry (registration, propagation, lineage, discovery), the seed inventory that extends the
 * lineage (seed lots, ADR 270) and the lineage agent it hosts.
 */
/** How long after start the gazetteer is loaded: after the rest of a process's start-up, before most first uses. */
const GEOCODER_WARM_DELAY_MS = 3000;

export const service: ServiceModule<typeof PlantsConfig, PlantsLedgerRecord> = {
  name: 'plants',
  version: '0.2.0',
  config: PlantsConfig,
  db: { schema: 'plants', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  ledger: plantsLedger,
  async create(ctx) {
    const intervalMs = ctx.config.LINEAGE_AGENT_INTERVAL_SECONDS * 1000;
    const agent = createLineageAgent({
      db: ctx.db,
      log: ctx.log,
      clock: ctx.clock,
      intervalMs,
      pollMs: ctx.config.LINEAGE_AGENT_POLL_MS,
      metrics: ctx.metrics,
    });
    const geocoder = ctx.config.GEOCODER_URL
      ? createNominatim({
          url: ctx.config.GEOCODER_URL,
          userAgent: ctx.config.GEOCODER_USER_AGENT,
          email: ctx.config.GEOCODER_EMAIL,
          agent: outgoingAgent(ctx.config.SOCKS_PROXY_URL),
          minIntervalMs: ctx.config.GEOCODER_MIN_INTERVAL_MS,
          now: () => ctx.clock.now().getTime(),
        })
      : null;
    const searchCache = createSearchCache<SearchHit>({
      ttlMs: ctx.config.SEARCH_CACHE_MS,
      now: () => ctx.clock.now().getTime(),
    });
    const searchIndex =
      ctx.config.SEARCH_INDEX_POLL_MS > 0
        ? createSearchIndexFeed({ db: ctx.db, log: ctx.log, pollMs: ctx.config.SEARCH_INDEX_POLL_MS })
        : undefined;
    // Each recorded write is read into this process's index before its request is answered.
    const ledger = searchIndex ? recorderReadingChanges(ctx.ledger, searchIndex, ctx.log) : ctx.ledger;
    const storage = storageFromConfig(ctx.config, () => ctx.clock.now().getTime());
    const importWorker = createImportWorker(ctx, storage, ledger);
    let stopping = false;
    let backfill: Promise<unknown> = Promise.resolve();
    let warmTimer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    return {
      handlers: [
        registerPlant(ctx, ledger),
        registerAnonymousPlant(ctx, ledger),
        clonePlant(ctx, ledger),
        getPlant(ctx),
        getLineage(ctx),
        nearbyPlants(ctx),
        searchPlantsHandler(ctx, searchCache, searchIndex),
        ownedPlants(ctx),
        recentPlants(ctx),
        networkStats(ctx),
        getLineageAgent(ctx, agent, intervalMs),
        controlLineageAgent(ctx, agent, intervalMs),
        analyseLineageHandler(ctx),
        listLineageAnomalies(ctx),
        privacyDistribution(ctx),
        searchPlacesHandler(ctx, geocoder),
        acceptSpecies(ctx),
        createSeedLot(ctx),
        getSeedLot(ctx),
        listSeedLotsHandler(ctx),
        updateSeedLotHandler(ctx),
        discardSeedLot(ctx),
        recordGerminationTest(ctx),
        listGerminationTestsHandler(ctx),
        lendSeedLot(ctx),
        getSeedLoan(ctx),
        listSeedLoansHandler(ctx),
        returnSeedLoan(ctx),
        handSeedLot(ctx),
        listSeedHandoffs(ctx),
        receiveSeedHandoff(ctx),
        proposeTransfer(ctx, ledger),
        getTransfer(ctx),
        listTransfersHandler(ctx),
        acceptTransfer(ctx, ledger),
        declineTransfer(ctx, ledger),
        cancelTransfer(ctx, ledger),
        getOwnershipHistory(ctx),
        getSeedLotOwnershipHistory(ctx),
        startImport(ctx, storage, () => importWorker.wake()),
        getImport(ctx),
        listImportJobs(ctx),
        exportInventoryChunk(ctx),
      ],
      subscribers: [],
      jobs: [importWorker],
      agents: [agent],
      start: async () => {
        // Searches are answered by PostgreSQL until the index is built (a few seconds for a million plants).
        await searchIndex?.start();
        // The gazetteer is loaded once the service is up, not on the first request that needs it, and not at once:
        // its half a second of decoding blocks the event loop, and the embedded process is still starting the
        // other services and the gateway then (docs/perf/startup.md).
        backfill = new Promise<void>((resolve) => {
          wake = resolve;
          warmTimer = setTimeout(resolve, GEOCODER_WARM_DELAY_MS);
        })
          .then(() => (stopping ? undefined : warmGeocoder()))
          .then(() => fillPlantPlaces(ctx, () => stopping));
      },
      stop: async () => {
        stopping = true;
        clearTimeout(warmTimer);
        wake?.();
        await backfill;
        await searchIndex?.stop();
        await storage.close();
      },
    };
  },
};
