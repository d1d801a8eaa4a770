import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  batchFail,
  batchGet,
  batchHarvest,
  batchList,
  batchReadingsList,
  batchReadingsRecord,
  batchStart,
  CropBatch,
  Farm,
  FarmZone,
  farmAnalyticsGet,
  farmGet,
  farmListOwned,
  farmRegister,
  GrowingRecipe,
  MAX_FARM_READINGS_PER_REQUEST,
  PAGE_DEFAULTS,
  recipeCreate,
  recipeList,
  zoneAdd,
  zoneList,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import { KEYED_RETRIES, LEDGER_RETRIES, OPERATOR_ONLY, OWNER_ONLY, RECIPE_EXAMPLE, RETRIES } from './farm-docs.js';

const TAGS = ['Vertical farming'];

/** Vertical farming under /api/vertical-farm: farms, zones, recipes, crop batches, readings, harvests, analytics. */
export const farmRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/register',
    summary: 'Register a vertical farm',
    description: `Registers a farm owned by the caller (FARM_MANAGER or ADMIN). ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'farm:write',
      idempotent: true,
      orgRole: 'manager',
      object: { rule: 'own', why: 'a farm of the caller, or of the organization it acts for' },
    },
    subject: farmRegister,
    status: 201,
    example: {
      name: 'Rotterdam Harbour Greens',
      location: { latitude: 51.9225, longitude: 4.4792, city: 'Rotterdam', country: 'NL' },
      floorAreaM2: 1200,
      levels: 8,
      lightingSystem: 'led',
      climateSystem: 'hvac-dehumidification',
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/farms',
    summary: 'My farms',
    description: 'The farms the caller owns, newest first, each with its zone count and growing area.',
    tags: TAGS,
    policy: { permission: 'farm:read', object: { rule: 'own', why: 'the caller’s own farms' } },
    subject: farmListOwned,
    list: { item: Farm },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/recipes',
    summary: 'Growing recipes',
    description:
      'Recipes by crop, then version: phases with their targets (PPFD, photoperiod, the resulting DLI, day and ' +
      'night temperature, humidity, CO2, EC, pH), the sources of the figures, the parent recipe and the outcomes ' +
      `of the batches grown with each version. \`page\` from 1, \`limit\` default ${PAGE_DEFAULTS.limit}, at most ` +
      `${PAGE_DEFAULTS.maxLimit}.`,
    tags: TAGS,
    policy: {
      permission: 'farm:read',
      object: { rule: 'none', why: 'recipes are shared knowledge, readable by every signed-in user' },
    },
    subject: recipeList,
    page: { item: GrowingRecipe },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/recipes',
    summary: 'Derive a growing recipe',
    description:
      'A new version of `parentId`: same crop, version = parent’s + 1, authored by the caller. Phases appear at ' +
      `most once; each range needs min ≤ max (400 VALIDATION_ERROR). 404 for an unknown parent. ${RETRIES}`,
    tags: TAGS,
    policy: { permission: 'farm:write', idempotent: true, object: { rule: 'own', why: 'a recipe of the caller' } },
    subject: recipeCreate,
    status: 201,
    errors: ['NOT_FOUND'],
    example: RECIPE_EXAMPLE,
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/batch/start',
    summary: 'Start a crop batch',
    description:
      'Starts a batch in a zone of the farm with a recipe. The zone’s open batches and this one together must fit ' +
      'its plant sites (400 VALIDATION_ERROR, `details.reason` zone-capacity). A seed source of type `plant` is ' +
      'checked with the plant registry (404 if unknown) and links the batch, and later its harvest on the ledger, ' +
      'into that plant’s lineage. `startedAt` records a batch that began earlier (default: now); its state, ' +
      'phase and expected harvest date follow from it. It may be at most 5 minutes ahead of the service clock and ' +
      'no earlier than the recipe’s cycle plus 365 days ago (400 VALIDATION_ERROR, `details.field` startedAt). ' +
      `${OWNER_ONLY} ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'farm:write',
      idempotent: true,
      object: [
        { rule: 'owner', field: 'farmId', record: 'farm' },
        { rule: 'owner', field: 'zoneId', record: 'zone' },
      ],
    },
    subject: batchStart,
    status: 201,
    errors: ['NOT_FOUND'],
    example: {
      farmId: 'frm_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      zoneId: 'zon_01HZX3K6Q2W8N4B7T5R9V0C1ME',
      recipeId: 'rcp_lettuce0butterhead01',
      crop: 'lettuce',
      variety: 'Rex',
      plantCount: 720,
      seedSource: { type: 'seed-lot', seedLot: 'RZ-2026-0412', supplier: 'Rijk Zwaan' },
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/batch/:batchId',
    summary: 'A crop batch',
    description:
      'State (germinating, growing, ready, harvested, failed), the recipe phase today with its targets and days ' +
      'in it, the expected harvest date, a summary of the readings and, once harvested, the harvest and its block. ' +
      OPERATOR_ONLY,
    tags: TAGS,
    policy: {
      permission: 'farm:read',
      object: { rule: 'owner', field: 'batchId', record: 'batch', why: 'the farm’s manager' },
    },
    subject: batchGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/batch/:batchId/readings',
    summary: 'Readings of a crop batch',
    description:
      'The latest `limit` readings (default 500, at most 1000), oldest first, each with the recipe phase it was ' +
      'compared under and that phase’s band for every metric (`max` null: no upper bound), for charts against the ' +
      'targets; `total` counts all; `alerts` are the latest 100 deviations, newest first. New readings are told ' +
      `to the farm’s live room \`farm:<farmId>\` as event \`farm.readings\`. ${OPERATOR_ONLY}`,
    tags: TAGS,
    policy: {
      permission: 'farm:read',
      object: { rule: 'owner', field: 'batchId', record: 'batch', why: 'the farm’s manager' },
    },
    subject: batchReadingsList,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'PUT',
    url: '/batch/:batchId/environment',
    summary: 'Record environment readings',
    description:
      `1 to ${MAX_FARM_READINGS_PER_REQUEST} readings, each at its time \`at\` (omitted: when the server receives ` +
      'it, as in the example), stored all or nothing. A value outside its ' +
      'physical range (e.g. humidity above 100 %, pH above 14) refuses the whole request with 400 ' +
      'VALIDATION_ERROR naming the field. Each reading is compared with the targets of the recipe phase at its ' +
      'time; deviations are stored, answered, and told to the farm’s manager as one alert per request (a ' +
      'notification; alerts are not public events). Readings of a ' +
      'closed batch are refused (400, `details.reason` batch-closed), and so is a reading more than five minutes ' +
      "before the batch started or after the server's clock (400 naming `readings.<i>.at`; `before-start`). " +
      'A reading the batch holds already (same ' +
      '`at`, same values) is stored once, even without a key: it is counted in `duplicates`, not in `accepted`, ' +
      `and its deviations are not stored or announced again. ${OWNER_ONLY} ${KEYED_RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'farm:write',
      idempotent: true,
      object: { rule: 'owner', field: 'batchId', record: 'batch', why: 'the farm’s manager' },
    },
    subject: batchReadingsRecord,
    errors: ['NOT_FOUND', 'DUPLICATE', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      readings: [
        {
          temperatureC: 23.4,
          humidityPct: 64,
          co2Ppm: 950,
          ppfd: 290,
          ecMsCm: 1.2,
          ph: 5.8,
          waterTemperatureC: 21,
          dissolvedOxygenMgL: 7.5,
        },
      ],
    },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/batch/:batchId/harvest',
    summary: 'Complete the harvest',
    description:
      'Records the harvest on the ledger (transaction `farm.harvest`, naming the batch, its recipe and its seed ' +
      'source with the plant’s block), completes the batch and emits `farm.harvest`. An open batch may be ' +
      'harvested whatever its state (germinating, growing or ready); before the recipe’s expected harvest date ' +
      'the harvest is flagged `early: true` (answered, on the ledger and in the event). A harvested batch (or one ' +
      'whose harvest another request is recording) answers 409 DUPLICATE; a failed one 409 CONFLICT ' +
      '(`details.reason` batch-failed, `details.state` failed). Of a harvest and a fail sent together, the first to ' +
      'take the batch wins and the other is answered 409 naming the state. ' +
      `${OWNER_ONLY} ${LEDGER_RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'farm:write',
      idempotent: true,
      orgRole: 'manager',
      object: { rule: 'owner', field: 'batchId', record: 'batch', why: 'the farm’s manager' },
    },
    subject: batchHarvest,
    status: 201,
    errors: ['NOT_FOUND', 'DUPLICATE', 'CONFLICT', 'CHAIN_ERROR'],
    example: { yieldKg: 154.2, qualityGrade: 'grade-a', notes: 'Tip burn on 2 % of heads' },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/batch/:batchId/fail',
    summary: 'Close a batch as failed',
    description:
      'Closes an open batch as failed with a reason; it counts against success rates. A failed batch answers 409 ' +
      'DUPLICATE; a harvested one, or one whose harvest is being recorded on the ledger, 409 CONFLICT with ' +
      '`details.state` (`harvested`, `harvesting`): of a harvest and a fail sent together, the first to take the ' +
      `batch wins. ${OWNER_ONLY}`,
    tags: TAGS,
    policy: {
      permission: 'farm:write',
      orgRole: 'manager',
      object: { rule: 'owner', field: 'batchId', record: 'batch', why: 'the farm’s manager' },
    },
    subject: batchFail,
    errors: ['NOT_FOUND', 'DUPLICATE', 'CONFLICT'],
    example: { reason: 'Pythium root rot' },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/farms/:farmId',
    aliases: ['/:farmId'],
    summary: 'A farm',
    description: 'The farm with its zone count and growing area.',
    tags: TAGS,
    policy: {
      permission: 'farm:read',
      object: {
        rule: 'public',
        field: 'farmId',
        record: 'farm',
        why: 'a farm’s profile is readable by every signed-in user',
      },
    },
    subject: farmGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/farms/:farmId/zones',
    aliases: ['/:farmId/zones'],
    summary: 'Zones of a farm',
    description: 'Each zone with its plant sites and the plants of its open batches: `data` is the list of zones.',
    tags: TAGS,
    policy: {
      permission: 'farm:read',
      object: {
        rule: 'public',
        field: 'farmId',
        record: 'farm',
        why: 'a farm’s zones are readable by every signed-in user',
      },
    },
    subject: zoneList,
    list: { item: FarmZone },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/farms/:farmId/batches',
    aliases: ['/:farmId/batches'],
    summary: 'Batches of a farm',
    description:
      'The farm’s crop batches, newest first, each as `GET /batch/{batchId}` answers it. `page` from 1, `limit` ' +
      `default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}. ${OPERATOR_ONLY}`,
    tags: TAGS,
    policy: {
      permission: 'farm:read',
      object: { rule: 'owner', field: 'farmId', record: 'farm', why: 'the farm’s manager' },
    },
    subject: batchList,
    page: { item: CropBatch },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/farms/:farmId/zones',
    aliases: ['/:farmId/zones'],
    summary: 'Add a zone',
    description: `A growing zone on a level of the farm. ${OWNER_ONLY} ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'farm:write',
      idempotent: true,
      orgRole: 'manager',
      object: { rule: 'owner', field: 'farmId', record: 'farm' },
    },
    subject: zoneAdd,
    status: 201,
    errors: ['NOT_FOUND'],
    example: {
      name: 'Level 3 NFT A',
      level: 3,
      areaM2: 96,
      growingMethod: 'nft',
      capacity: 2400,
      setpoints: { temperatureC: 22, humidityPct: 65, co2Ppm: 1000, ppfd: 290, photoperiodHours: 16 },
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/farms/:farmId/analytics',
    aliases: ['/:farmId/analytics'],
    summary: 'Farm analytics',
    description:
      'Over `from`–`to` (default the last 365 days): yield per m² per year, cycle times, zone utilisation, batch ' +
      'success rate and environment compliance (share of readings within target), for the farm, by crop and by ' +
      `recipe. Formulas in docs/farm.md. ${OPERATOR_ONLY}`,
    tags: TAGS,
    policy: {
      permission: 'farm:read',
      object: { rule: 'owner', field: 'farmId', record: 'farm', why: 'operational figures: the manager and ADMIN' },
    },
    subject: farmAnalyticsGet,
    errors: ['NOT_FOUND'],
  });
};
