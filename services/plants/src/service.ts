import { fileURLToPath } from 'node:url';
import type { SearchHit } from '@rootline/contracts';
import { createNominatim, warmGeocoder } from '@rootline/geocoder';
import { outgoingAgent, type ServiceModule, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { fillPlantPlaces } from './backfill-places.js';
import { outbox } from './db/schema.js';
import { nearbyPlants, networkStats, ownedPlants, searchPlantsHandler } from './handlers/discovery.js';
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
import { acceptSpecies } from './handlers/species.js';
import { createLineageAgent } from './lineage-agent.js';
import { type PlantRecord, plantsLedger } from './recorder.js';
import { createSearchCache } from './search-cache.js';

const PlantsConfig = withBase({
  LINEAGE_AGENT_INTERVAL_SECONDS: Type.Number({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description: 'Time between two scans of the lineage agent while it runs',
  }),
  LINEAGE_AGENT_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 5000,
    description: 'How often each replica checks whether a scan is due',
  }),
  GEOCODER_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'Base URL of a Nominatim-compatible geocoder for GET /api/geocode (none: the bundled gazetteer only)',
    }),
  ),
  GEOCODER_USER_AGENT: Type.String({
    minLength: 1,
    default: 'Rootline plant tracing (self-hosted)',
    description: 'User-Agent naming this installation to the geocoder, as its usage policy asks',
  }),
  GEOCODER_EMAIL: Type.Optional(
    Type.String({ minLength: 3, description: 'Contact address sent to the geocoder (`email`), for heavy use' }),
  ),
  GEOCODER_MIN_INTERVAL_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 1000,
    description: 'Least time between two geocoder requests of a process (the public service allows one a second)',
  }),
  SEARCH_CACHE_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 2000,
    description:
      'How long a search answer is reused for the same query, fields and page (0: every search is computed); keep it below READ_YOUR_WRITES_MS',
  }),
});

/** plants: the plant registry (registration, propagation, lineage, discovery) and the lineage agent it hosts. */
/** How long after start the gazetteer is loaded: after the rest of a process's start-up, before most first uses. */
const GEOCODER_WARM_DELAY_MS = 3000;

export const service: ServiceModule<typeof PlantsConfig, PlantRecord> = {
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
    let stopping = false;
    let backfill: Promise<unknown> = Promise.resolve();
    let warmTimer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    return {
      handlers: [
        registerPlant(ctx, ctx.ledger),
        registerAnonymousPlant(ctx, ctx.ledger),
        clonePlant(ctx, ctx.ledger),
        getPlant(ctx),
        getLineage(ctx),
        nearbyPlants(ctx),
        searchPlantsHandler(ctx, searchCache),
        ownedPlants(ctx),
        networkStats(ctx),
        getLineageAgent(ctx, agent, intervalMs),
        controlLineageAgent(ctx, agent, intervalMs),
        analyseLineageHandler(ctx),
        listLineageAnomalies(ctx),
        privacyDistribution(ctx),
        searchPlacesHandler(ctx, geocoder),
        acceptSpecies(ctx),
      ],
      subscribers: [],
      agents: [agent],
      start: async () => {
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
      },
    };
  },
};
