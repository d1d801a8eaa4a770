import { fileURLToPath } from 'node:url';
import { type ServiceModule, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { ensureAgent } from './db/lineage-agent.repo.js';
import { outbox } from './db/schema.js';
import { nearbyPlants, networkStats, ownedPlants, searchPlantsHandler } from './handlers/discovery.js';
import { getLineage } from './handlers/lineage.js';
import {
  analyseLineageHandler,
  controlLineageAgent,
  getLineageAgent,
  listLineageAnomalies,
} from './handlers/lineage-agent.js';
import { clonePlant, getPlant, registerAnonymousPlant, registerPlant } from './handlers/plant.js';
import { privacyDistribution } from './handlers/privacy-distribution.js';
import { createLineageAgentRunner } from './lineage-agent.js';
import { createRecorder } from './recorder.js';

const PlantsConfig = withBase({
  LINEAGE_AGENT_INTERVAL_SECONDS: Type.Number({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description: 'Time between two scans of the lineage agent while it runs',
  }),
  LEDGER_RECOVER_AFTER_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 30,
    description:
      'Age at which an unfinished ledger write is finished by the recovery sweep (above the request timeout)',
  }),
  LINEAGE_AGENT_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 5000,
    description: 'How often each replica checks whether a scan is due',
  }),
});

/** plants: the plant registry (registration, propagation, lineage, discovery) and the lineage agent it hosts. */
export const service: ServiceModule<typeof PlantsConfig> = {
  name: 'plants',
  version: '0.2.0',
  config: PlantsConfig,
  db: { schema: 'plants', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  async create(ctx) {
    const intervalMs = ctx.config.LINEAGE_AGENT_INTERVAL_SECONDS * 1000;
    await ensureAgent(ctx.db, ctx.clock.now());
    const agent = createLineageAgentRunner({
      db: ctx.db,
      log: ctx.log,
      clock: ctx.clock,
      intervalMs,
      pollMs: ctx.config.LINEAGE_AGENT_POLL_MS,
    });
    const recorder = createRecorder({
      db: ctx.db,
      bus: ctx.bus,
      outbox: ctx.outbox,
      log: ctx.log,
      clock: ctx.clock,
      recoverAfterMs: ctx.config.LEDGER_RECOVER_AFTER_SECONDS * 1000,
    });
    return {
      handlers: [
        registerPlant(ctx, recorder),
        registerAnonymousPlant(ctx, recorder),
        clonePlant(ctx, recorder),
        getPlant(ctx),
        getLineage(ctx),
        nearbyPlants(ctx),
        searchPlantsHandler(ctx),
        ownedPlants(ctx),
        networkStats(ctx),
        getLineageAgent(ctx, intervalMs),
        controlLineageAgent(ctx, agent, intervalMs),
        analyseLineageHandler(ctx),
        listLineageAnomalies(ctx),
        privacyDistribution(ctx),
      ],
      subscribers: [],
      start: async () => {
        recorder.start();
        agent.start();
      },
      stop: async () => {
        await recorder.stop();
        await agent.stop();
      },
      status: async () => ({ ledgerIntents: await recorder.intentCounts() }),
    };
  },
};
