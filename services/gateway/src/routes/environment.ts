import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EnvironmentHistoryMeta,
  EnvironmentRecord,
  environmentAnalysis,
  environmentCompare,
  environmentHealthGet,
  environmentRecommendations,
  environmentRecordAdd,
  environmentRecordList,
  environmentSimilar,
  PAGE_DEFAULTS,
  SIMILAR_LIMITS,
  SimilarPlant,
  SimilarPlantsMeta,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Environment'];
const UNKNOWN_PLANT = 'A plant the plants service does not know is 404 NOT_FOUND; a plant without records is valid.';

/** Environment records and what is derived from them, under /api/environment. */
export const environmentRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/records',
    summary: 'Add an environment record',
    description:
      'One observation of a plant in one or more of the nine categories: `soil`, `nutrients`, `lighting`, ' +
      '`climate`, `location` (indoor, outdoor or greenhouse), `container`, `watering`, `surroundings` and `growth`. ' +
      'Every field is optional but a record needs at least one category; numbers outside physical limits (pH 0–14, ' +
      'humidity 0–100 %, temperature −60–60 °C…) are 400 VALIDATION_ERROR. `recordedAt` defaults to now and may ' +
      'not be in the future. Each category of the record becomes the plant’s current one unless a later-measured ' +
      'value exists.\n\nOnly the plant’s owner (as the plants service knows it) or an ADMIN may write: 403 ' +
      `FORBIDDEN otherwise. ${UNKNOWN_PLANT} Emits \`evt.environment.record.added\`.`,
    tags: TAGS,
    policy: {
      permission: 'environment:write',
      idempotent: true,
      object: { rule: 'owner', field: 'plantId', record: 'plant' },
    },
    subject: environmentRecordAdd,
    status: 201,
    errors: ['NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      plantId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      recordedAt: '2026-11-20T08:30:00Z',
      soil: { type: 'loam', ph: 6.4, drainage: 'good', organicMatterPercent: 5, amendments: ['compost'] },
      nutrients: {
        nitrogenPpm: 150,
        phosphorusPpm: 50,
        potassiumPpm: 200,
        ecMsCm: 2.2,
        fertilizerApplications: [
          {
            type: 'liquid tomato feed',
            schedule: 'weekly',
            npk: { n: 4, p: 3, k: 8 },
            appliedAt: '2026-11-18T07:00:00Z',
          },
        ],
      },
      lighting: { source: 'natural', hoursPerDay: 14, spectrum: 'sunlight', ppfd: 900, dli: 24 },
      climate: { temperatureC: 23.5, humidityPercent: 65, airflow: 'light', co2Ppm: 420, hardinessZone: '8b' },
      location: { setting: 'greenhouse', greenhouse: { heated: false, ventilated: true, covering: 'glass' } },
      container: { type: 'pot', material: 'terracotta', volumeLiters: 20, hasDrainage: true },
      watering: { method: 'drip', frequencyPerWeek: 5, source: 'rain', ph: 6.5, tdsPpm: 40, chlorinePpm: 0 },
      surroundings: { companionPlants: ['basil', 'marigold'], pests: ['aphids'], diseases: [], ecosystem: 'garden' },
      growth: {
        heightCm: 85,
        stemDiameterMm: 12,
        leafCount: 60,
        growthRateCmPerWeek: 6,
        healthScore: 80,
        vigor: 'good',
      },
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/records/:plantId',
    summary: 'Environment history of a plant',
    description:
      '`data` is a page of the records, newest first (`page` from 1, `limit` default ' +
      `${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}), with \`pagination\` beside it; \`meta.current\` is ` +
      `the newest value of each category (by \`recordedAt\`) over all the records. ${UNKNOWN_PLANT}`,
    tags: TAGS,
    policy: { permission: 'environment:read', object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: environmentRecordList,
    page: { item: EnvironmentRecord, meta: EnvironmentHistoryMeta },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/health/:plantId',
    summary: 'Environmental health score',
    description:
      'A score of 0–100 from the plant’s current environment against its species’ optimal ranges (soil pH, ' +
      'temperature, humidity, DLI, light hours, EC, water pH; the table and its sources are in docs/environment.md). ' +
      'A parameter scores 100 inside its range and falls linearly to 0 at its tolerance outside it; a category ' +
      'scores the mean of its parameters and the plant the weighted mean of the categories measured (climate 0.3, ' +
      'lighting 0.25, soil 0.2, watering 0.15, nutrients 0.1). A species not in the table uses the generic ' +
      `fallback ranges (\`ranges: "fallback"\`). \`score\` is null when nothing scored was measured. ${UNKNOWN_PLANT}`,
    tags: TAGS,
    policy: { permission: 'environment:read', object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: environmentHealthGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/recommendations',
    summary: 'Recommendations for a plant',
    description:
      'Advice for each scored parameter outside the plant’s optimal range (priority `high` when it scores below ' +
      '50, `medium` otherwise) and each one never measured (`low`), with the category, the measured value, the ' +
      `target range and why. Highest priority first, then the worst score. The health score comes with it. ${UNKNOWN_PLANT}`,
    tags: TAGS,
    policy: { permission: 'environment:read', object: { rule: 'none', why: 'computed from public plants' } },
    subject: environmentRecommendations,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/similar',
    summary: 'Plants with similar conditions',
    description:
      `The \`limit\` (default ${SIMILAR_LIMITS.defaultLimit}, at most ${SIMILAR_LIMITS.maxLimit}) plants whose ` +
      'current conditions are most similar, each with a similarity of 0–100: per category, 1 − the mean ' +
      'difference of the features both plants have (numbers scaled to 0–1, categories equal or not), then the ' +
      'weighted mean over the categories both have (climate 0.2, lighting 0.2, soil 0.15, watering 0.15, ' +
      'nutrients 0.1, location 0.1, container 0.05, surroundings 0.05; growth is an outcome and not compared). ' +
      'Plants sharing no category are left out. Ties by plant id. `data` is the list, most similar first; ' +
      `\`meta.compared\` counts the plants with an environment the plant was compared with. ${UNKNOWN_PLANT}`,
    tags: TAGS,
    policy: { permission: 'environment:read', object: { rule: 'none', why: 'computed from public plants' } },
    subject: environmentSimilar,
    list: { item: SimilarPlant, meta: SimilarPlantsMeta },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/compare',
    summary: 'Compare the environments of two plants',
    description:
      'Per category: its weight, its similarity (null unless both plants have it) and each parameter’s values ' +
      'for `plantA` and `plantB` with the difference b − a for numbers; and the overall similarity, computed as ' +
      `for /similar. ${UNKNOWN_PLANT}`,
    tags: TAGS,
    policy: { permission: 'environment:read', object: { rule: 'none', why: 'computed from public plants' } },
    subject: environmentCompare,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/analysis',
    summary: 'Network-wide growth correlation',
    description:
      'For each species (or only `species`), the Pearson correlation between each condition (soil pH, light hours, ' +
      'DLI, temperature, humidity, watering frequency, water pH, EC) and each growth outcome (the grower’s health ' +
      'score, growth rate, height) over the plants’ current environments, with the number of plants `n`, a 95 % ' +
      'Fisher-z confidence interval, a two-sided p-value (t test, n − 2 degrees of freedom) and a ' +
      'Benjamini–Hochberg q-value over every correlation in the answer. Pairs with fewer than `minSamples` plants ' +
      '(default 10) or a constant value are counted in `skipped`, not reported. Read `significant` (q < 0.05) and ' +
      'the interval, not r alone.',
    tags: TAGS,
    policy: { permission: 'environment:read', object: { rule: 'none', why: 'network-wide correlations' } },
    subject: environmentAnalysis,
  });
};
