import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  GerminationTest,
  germinationTestList,
  germinationTestRecord,
  LOW_VIABILITY,
  OwnershipChange,
  PAGE_DEFAULTS,
  SeedLot,
  seedLotCreate,
  seedLotDiscard,
  seedLotGet,
  seedLotList,
  seedLotOwnershipHistory,
  seedLotUpdate,
} from '@rootline/contracts';
import { busRoute } from '../http/bus-route.js';
import { withAccountNames } from '../http/party-names.js';
import type { NamingRouteDeps } from './plants.js';

const TAGS = ['Seed lots'];
const PAGING = `\`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`;
const HOLDER =
  'The holder is the owning account, or, acting for the owning organization (`Rootline-Act-As`), its viewers and ' +
  'up to read, its members and up to change, its managers and owners to discard; an ADMIN may too.';
const VIABILITY =
  '`viability.expected` is the share of seed expected to germinate today: the last germination test carried ' +
  'from its day to today, or an assumed 90 % at harvest (1 July of the harvest year) without a test, along the ' +
  'crop’s decline: the Ellis–Roberts viability curve calibrated so that seed falls to 50 % at the crop’s life ' +
  'expectancy in Knott’s Handbook for Vegetable Growers (docs/seed-lots.md). A crop the table does not list keeps ' +
  `its last test’s rate, or has none (\`basis\` none). \`low\` is true below ${LOW_VIABILITY}.`;
const LOT = { rule: 'owner', field: 'seedLotId', record: 'seed lot' } as const;

/** The seed inventory under /api/seed-lots: seed lots, their germination tests and expected viability (ADR 270). */
export const seedLotRoutes: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '',
    summary: 'Record a seed lot',
    description:
      'Records a lot of seed for the caller, or for the organization the request acts for (role member or ' +
      'above), with a minted id (`lot_…`) that journey events and plant registrations can name. Required: `crop` ' +
      '(English name, 1–120 characters: its life expectancy is looked up by it), `harvestYear`, `quantity` ' +
      '(`amount` with `unit` seeds, grams or packets). Optional: `variety`, `parentPlantIds` (the registered ' +
      'plants the seed was saved from, mother first; each must exist: 404 NOT_FOUND with `details.field` ' +
      'parentPlantIds and `details.missing`), `storage` (place, temperature °C, relative humidity %, container), ' +
      '`notes`. The first quantity is recorded as the lot’s first quantity change. The lot is not written to the ' +
      'ledger (ADR 270): the plants grown from it and the journeys that name it are. Send an `Idempotency-Key` ' +
      'header: a retry with the same key and body gets the first answer.',
    tags: TAGS,
    policy: { permission: 'plants:write', idempotent: true, object: { rule: 'none', why: 'a new lot of the caller' } },
    subject: seedLotCreate,
    status: 201,
    errors: ['NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      crop: 'tomato',
      variety: 'Brandywine',
      parentPlantIds: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
      harvestYear: 2026,
      quantity: { amount: 120, unit: 'seeds' },
      storage: { place: 'cellar, shelf 2', temperatureC: 8, humidityPct: 35, container: 'glass jar with silica gel' },
      notes: 'From the best-tasting fruit of the south bed',
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '',
    summary: 'List seed lots',
    description:
      'The lots an owner holds that are not discarded, newest harvest first (ties: newest first). `ownerId` is ' +
      'your own account id or the organization you act for (403 FORBIDDEN otherwise; an ADMIN may name anyone); ' +
      'left out, the organization you act for, else you. Filters: `crop` (equal, case ignored), `harvestYear`, ' +
      `\`lowViability\` (true: only lots whose expected viability is below ${LOW_VIABILITY}; false: only the ` +
      `others, lots with no expected viability included; computed over the owner’s first 5,000 lots). ${VIABILITY} ${PAGING}`,
    tags: TAGS,
    policy: { permission: 'plants:read', object: { rule: 'self', field: 'ownerId' } },
    subject: seedLotList,
    page: { item: SeedLot },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:seedLotId',
    summary: 'Read a seed lot',
    description:
      `To its holder every field with its expected viability and last test (\`access\` holder). ${HOLDER} To ` +
      'anyone else, signed in or not, the public fields: crop, variety, harvest year, parent plants and owner, as ' +
      'a plant’s lineage shows them; quantity, storage, notes and viability are null (`access` public). A ' +
      `discarded lot is still read, with \`discardedAt\`. ${VIABILITY}`,
    tags: TAGS,
    policy: {
      public: true,
      identifiesCaller: true,
      object: {
        rule: 'public',
        field: 'seedLotId',
        record: 'seed lot',
        why: 'its identity is public like a lineage; quantity, storage and notes only to its holder',
      },
    },
    subject: seedLotGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:seedLotId/ownership',
    summary: 'Ownership history of a seed lot',
    description:
      'The accepted transfers of a seed lot (`POST /api/transfers` with `subjectType` seed-lot), oldest first, as ' +
      'the ledger recorded them (`ownership.transfer`): from and to with their names, who signed for each side ' +
      '(the account, and the organization it acted for), when, and the block. Whoever may read the lot reads it: ' +
      'anyone, signed in or not, like the lot’s public fields and the ledger; a discarded lot’s too. An empty list: ' +
      'the lot never changed owner.',
    tags: TAGS,
    policy: {
      public: true,
      identifiesCaller: true,
      object: {
        rule: 'public',
        field: 'seedLotId',
        record: 'seed lot',
        why: 'as the lot’s public fields: its owners are on the ledger',
      },
    },
    subject: seedLotOwnershipHistory,
    answer: (data) => withAccountNames(data, deps.accountNames),
    list: { item: OwnershipChange },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'PATCH',
    url: '/:seedLotId',
    summary: 'Change a seed lot',
    description:
      `Changes the fields sent (at least one); \`variety\`, \`storage\` and \`notes\` may be null to clear them. ${HOLDER} ` +
      'A new `quantity` is recorded as a quantity change, with `quantityNote` as its reason. A discarded lot is ' +
      '409 CONFLICT. The parent plants do not change: a lot with other parents is another lot.',
    tags: TAGS,
    policy: { permission: 'plants:write', object: LOT },
    subject: seedLotUpdate,
    errors: ['NOT_FOUND', 'CONFLICT'],
    example: { quantity: { amount: 80, unit: 'seeds' }, quantityNote: 'Sown 40 in the greenhouse' },
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/:seedLotId',
    summary: 'Discard a seed lot',
    description:
      'Marks the lot discarded (`discardedAt`): it leaves the list and no longer changes or takes tests (409), ' +
      'and new plants can no longer be registered from it; it is kept, so the plants grown from it, their ' +
      'lineage and the journeys that name it still find it (ADR 270). Discarding it again answers the same. ' +
      `${HOLDER}`,
    tags: TAGS,
    policy: { permission: 'plants:write', orgRole: 'manager', object: LOT },
    subject: seedLotDiscard,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/:seedLotId/germination-tests',
    summary: 'Record a germination test',
    description:
      'A test of the lot read on `testedOn` (YYYY-MM-DD, not in the future, not before the harvest year): ' +
      '`seedsSown`, `germinated` (at most seedsSown), `method` (paper-towel by default, between-paper, sand, ' +
      'soil, tetrazolium, other) and `notes`; the answer carries its `rate` (germinated ÷ seedsSown). The latest ' +
      `test by day is the one the lot’s expected viability starts from. ${HOLDER} A discarded lot is 409 ` +
      'CONFLICT. Send an `Idempotency-Key` header: a retry with the same key and body gets the first answer.',
    tags: TAGS,
    policy: { permission: 'plants:write', idempotent: true, object: LOT },
    subject: germinationTestRecord,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED'],
    example: { testedOn: '2026-11-20', seedsSown: 50, germinated: 43, method: 'paper-towel' },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:seedLotId/germination-tests',
    summary: 'Germination tests of a seed lot',
    description: `The lot’s tests, latest day first (ties: latest recorded first). ${HOLDER} ${PAGING}`,
    tags: TAGS,
    policy: { permission: 'plants:read', object: LOT },
    subject: germinationTestList,
    errors: ['NOT_FOUND'],
    page: { item: GerminationTest },
  });
};
