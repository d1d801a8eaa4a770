import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  demandImport,
  forecastGet,
  Match,
  matchCreate,
  PAGE_DEFAULTS,
  Preference,
  preferenceGet,
  preferenceList,
  preferenceSave,
  recommendationsGet,
  Supply,
  signalGenerate,
  supplyCommit,
  supplyList,
  supplyMatchList,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Demand'];
const PAGING = `\`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`;
const UNITS =
  'Quantities are in `kg`, `piece` or `bunch`; pieces and bunches count as kilograms by the crop table’s typical ' +
  'weights (docs/demand.md). Prices are integer minor units per unit of an ISO 4217 currency.';

const PRIVACY =
  'Demand is shown only over at least 5 distinct households (k-anonymity, ADR 102): a region of fewer is ' +
  'refused with 400 VALIDATION_ERROR, details `[{ field: "body/region", reason: "too-few-households", minimum: 5 }]`, ' +
  'and a crop fewer of its households ask for is left out (`suppressedCrops` counts them).';

/** Demand planning under /api/demand: preferences, signals, recommendations, forecasts, supply and matches. */
export const demandRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/preferences',
    summary: 'Store your preferences',
    description:
      'The caller’s own household: location, how far it would fetch food (`radiusKm`, default 25), household size ' +
      'and, per crop, the quantity per week, the unit, an optional maximum price, organic-only and local-only ' +
      'flags and the seasons it wants the crop in (default all). Replaces the caller’s earlier preferences. ' +
      'Answers 201 with the stored preferences (every save writes them, the first or a replacement). ' +
      UNITS,
    tags: TAGS,
    policy: { permission: 'demand:write', object: { rule: 'own', why: 'the caller’s own preferences' } },
    subject: preferenceSave,
    status: 201,
    example: {
      location: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
      radiusKm: 20,
      householdSize: 3,
      items: [
        { crop: 'tomato', quantityPerWeek: 1.5, unit: 'kg', maxPrice: 450, currency: 'EUR', seasons: ['summer'] },
        { crop: 'lettuce', quantityPerWeek: 2, unit: 'piece', organicOnly: true, localOnly: true },
      ],
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/preferences',
    summary: 'Read preferences',
    description: `Your own (a page of at most one); \`scope=all\` lists everyone’s, for an ADMIN only (403 otherwise). ${PAGING}`,
    tags: TAGS,
    policy: { permission: 'demand:read', object: { rule: 'own', why: 'the caller’s own (all of them for an ADMIN)' } },
    subject: preferenceList,
    page: { item: Preference },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/preferences/:consumerId',
    summary: 'Preferences of one consumer',
    description: 'That consumer or an ADMIN only (403); 404 when the consumer stored none.',
    tags: TAGS,
    policy: { permission: 'demand:read', object: { rule: 'self', field: 'consumerId' } },
    subject: preferenceGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/signal',
    summary: 'Generate a demand signal',
    description:
      'Aggregates the preferences of the households in a region (a point and `radiusKm`, haversine to the ' +
      'household; or a `country`, optionally a `city`, matched by name without regard to case) into weekly ' +
      'demand per crop in kg over `horizonWeeks` (default 4) from the week of `from` (default this week), net of ' +
      'the supply committed in the region those weeks, with the gap (never below 0). Stored, and emitted as ' +
      '`demand.signal`. A signal by name also records its first week’s demand per crop as the region’s history, ' +
      `which forecasts are made from (region key \`COUNTRY\` or \`COUNTRY/city\`). ${PRIVACY} ${UNITS}`,
    tags: TAGS,
    policy: {
      permission: 'demand:write',
      idempotent: true,
      object: { rule: 'none', why: 'aggregates of at least the minimum number of households (docs/privacy.md)' },
    },
    subject: signalGenerate,
    status: 201,
    errors: ['IDEMPOTENCY_KEY_REUSED'],
    example: { region: { country: 'NL', city: 'Amsterdam' }, from: '2026-11-23', horizonWeeks: 4 },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/import',
    summary: 'Import households’ settled dates and past demand (ADMIN)',
    description:
      'For an instance taking over from another system (or filled with demo data): `households` sets since when ' +
      'each named account’s household has lived where its stored preferences place it (`settledSince`, in the ' +
      'past); it counts in aggregates 14 days after (ADR 174), its items from the week after. `history` stores ' +
      'weeks of demand per crop and region (`COUNTRY` or `COUNTRY/city`, Mondays before this week), the series ' +
      'forecasts read; a week a signal already recorded is kept. Accounts without stored preferences are answered ' +
      'in `missing`. ADMIN only (403 FORBIDDEN otherwise); 400 VALIDATION_ERROR naming `households.<i>.settledSince` ' +
      'or `history.<i>.weekStart` for a date in the future or not a Monday (ADR 207).',
    tags: TAGS,
    policy: { permission: 'admin:users', object: { rule: 'none', why: 'ADMIN administration: every household' } },
    subject: demandImport,
    example: {
      households: [{ consumerId: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', settledSince: '2026-09-01T00:00:00Z' }],
      history: [{ crop: 'tomato', region: 'NL/amsterdam', weekStart: '2026-10-05', demandKg: 42.5 }],
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/recommendations',
    summary: 'Planting recommendations',
    description:
      'Crops ranked for a grower at `lat`/`lon` (the only required parameters) with `areaM2` m² (default 10), a ' +
      'growing `method` (default `open-field`, the most common) and a `startDate` (default today, UTC): each with ' +
      'whether it can be sown then with that method, the first harvest date, expected yield (area × the crop ' +
      'table’s yield per m²), the nearby unmet demand over four harvest weeks (households within `radius` km, ' +
      'default 50, less committed supply), the expected revenue of what can be sold (at the median maximum price ' +
      'nearby households state, else the table’s reference price) and the reasoning. Ranked by that revenue; ' +
      'crops that cannot be sown score 0 and come after every crop that can. A crop fewer than 5 nearby households ask for counts no demand, and a ' +
      'median price needs 5 households stating one (ADR 102). The model and crop table with sources: docs/demand.md.',
    tags: TAGS,
    policy: {
      permission: 'demand:read',
      object: { rule: 'none', why: 'aggregates of at least the minimum number of households' },
    },
    subject: recommendationsGet,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/forecast',
    summary: 'Demand forecast',
    description:
      'Weekly demand of `crop` in `region` (`COUNTRY` or `COUNTRY/city`, as signals by name record it) for the ' +
      '`weeks` after its last recorded week (default 4), from whatever history there is, with 80 % and 95 % ' +
      'prediction intervals and the back-tested error beside it (rolling origin, one week ahead: MAPE and MASE). ' +
      '`method` names the method the history allows: `holt` (Holt’s linear exponential smoothing, parameters ' +
      'chosen on the history) from four weeks, `naive` (the last week carried on, its interval from the ' +
      'week-to-week changes, or ± half the week while there is only one) below; `basedOnWeeks` says how many weeks ' +
      'it rests on. 404 NOT_FOUND only when the crop has never been recorded in the region (a signal records a ' +
      'crop only once 5 households of the region ask for it, ADR 102).',
    tags: TAGS,
    policy: {
      permission: 'demand:read',
      object: { rule: 'none', why: 'aggregates of at least the minimum number of households' },
    },
    subject: forecastGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/supply',
    summary: 'Register a supply commitment',
    description:
      'The caller commits to supply `quantity` of a crop over a `window` of dates (at most 366 days) at a price ' +
      'per unit from a location. Emits `supply.committed`. It counts against demand in signals and ' +
      `recommendations, and is matched by POST /api/demand/match. ${UNITS}`,
    tags: TAGS,
    policy: {
      permission: 'demand:write',
      idempotent: true,
      object: { rule: 'own', why: 'a commitment of the caller' },
    },
    subject: supplyCommit,
    status: 201,
    errors: ['IDEMPOTENCY_KEY_REUSED'],
    example: {
      crop: 'tomato',
      quantity: 120,
      unit: 'kg',
      window: { from: '2027-07-01', to: '2027-08-31' },
      price: 320,
      currency: 'EUR',
      location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
      organic: true,
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/supply',
    summary: 'List supply commitments',
    description:
      'Your own supply commitments, newest first, each with how much of it matches have taken (`matchedKg`); ' +
      `\`scope=all\` lists every grower’s, for an ADMIN only (403 otherwise). ${PAGING}`,
    tags: TAGS,
    policy: {
      permission: 'demand:read',
      object: { rule: 'own', why: 'the caller’s own commitments (all of them for an ADMIN)' },
    },
    subject: supplyList,
    page: { item: Supply },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/supply/:supplyId/matches',
    summary: 'Matches of a supply commitment',
    description:
      'The households POST /api/demand/match matched to one commitment, nearest first. Its grower and an ADMIN ' +
      'only: to anyone else the commitment does not exist (404 NOT_FOUND). As in the match answer, the grower ' +
      'sees no household (`consumerId` null) and distances rounded up to a multiple of 5 km; an ADMIN sees both ' +
      `as they are (ADR 102). ${PAGING}`,
    tags: TAGS,
    policy: {
      permission: 'demand:read',
      object: { rule: 'owner', field: 'supplyId', record: 'supply commitment', why: 'its grower' },
    },
    subject: supplyMatchList,
    page: { item: Match },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/match',
    summary: 'Match supply to demand',
    description:
      'Matches the caller’s open supply (an ADMIN’s: everyone’s), optionally of one `crop`, to households within ' +
      '`maxDistanceKm` (default 50) whose preferences ask for the crop at an acceptable price (organic-only and ' +
      'local-only honoured): nearest first, then the higher price accepted; each gets up to its demand over the ' +
      'supply’s window, less what earlier matches already give it. Each new match is recorded and emitted as ' +
      '`demand.match`. A supply and a consumer are matched at most once, so the same call again adds nothing ' +
      '(`created` 0). Answers 201 with every match of the supplies concerned. A match does not disclose its household to ' +
      'the grower: `consumerId` is null (the match id is the handle) and `distanceKm` is rounded up to a multiple ' +
      'of 5 km; the consumer and an ADMIN see both as they are (ADR 102).',
    tags: TAGS,
    policy: {
      permission: 'demand:write',
      idempotent: true,
      object: { rule: 'own', why: 'the caller’s own open supply; consumers shown without identity' },
    },
    subject: matchCreate,
    status: 201,
    errors: ['IDEMPOTENCY_KEY_REUSED'],
    example: { crop: 'tomato', maxDistanceKm: 30 },
  });
};
