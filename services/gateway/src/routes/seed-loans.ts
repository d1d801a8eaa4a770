import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  PAGE_DEFAULTS,
  SeedLoan,
  seedLoanCreate,
  seedLoanGet,
  seedLoanList,
  seedLoanReturn,
} from '@rootline/contracts';
import { busRoute } from '../http/bus-route.js';
import { type NamingRouteDeps, stater } from './plants.js';

const TAGS = ['Seed loans'];
const PAGING = `\`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`;
const RETRIES =
  'Send an `Idempotency-Key` header (a fresh UUID per new request, the same one for its retries): a retry with ' +
  'the same key and body gets the first answer for 24 h and is recorded once.';
const DUE =
  '`dueSeason` is a year and a season, `YYYY-spring|summer|autumn|winter` (e.g. `2027-autumn`); the loan falls due ' +
  'at the end of the season’s last day, UTC (meteorological seasons: spring March–May, summer June–August, autumn ' +
  'September–November, winter December to February of the next year), `dueAt` in the answer. A loan still open ' +
  'after it is `overdue`, by the service’s clock.';
const PARTIES =
  'A loan is read by its lender (the account, or anyone acting for the lending organization, viewer and up), its ' +
  'borrower and ADMINs; anyone else gets 404 NOT_FOUND, as for an unknown id.';

/** POST /api/seed-lots/:seedLotId/loans: lending seed of a lot (registered beside the seed-lot routes). */
export const seedLotLendRoute: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/:seedLotId/loans',
    summary: 'Lend seed of a lot',
    description:
      'The lot’s holder lends part of it to a borrower: the account itself, or an owner or manager of the owning ' +
      'organization acting for it (`Rootline-Act-As`; a member or viewer is 403 FORBIDDEN, `reason: org-role`). ' +
      '`borrower.id` is an account id (`borrower.name` is filled in with its name; no such account is 404 ' +
      'NOT_FOUND, `details.field: borrower.id`, `reason: unknown-recipient`; the holder itself is 400 ' +
      '`reason: same-owner`). `quantity.amount` is in the lot’s unit: the lot’s quantity goes down by it under the ' +
      'lot’s lock and never below zero; more than the lot holds is 409 CONFLICT (`reason: loan-exceeds-lot`, ' +
      `\`details.available\`, \`details.unit\`). ${DUE} A season already over is 400 (\`reason: due-passed\`); a ` +
      'discarded lot is 409 (`reason: discarded`). The loan is a `seed-sharing` journey event on the ledger from ' +
      'the holder to the borrower naming the lot and the quantity (`lendEventId`; no place is recorded: privacy ' +
      `level hidden), and the change of quantity is recorded with reason \`lent\`. ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      orgRole: 'manager',
      object: {
        rule: 'owner',
        field: 'seedLotId',
        record: 'seed lot',
        why: 'its holder: the owner, or an owner or manager of the owning organization',
      },
    },
    subject: seedLoanCreate,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      borrower: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1ME' },
      quantity: { amount: 20 },
      dueSeason: '2027-autumn',
      notes: 'Grow them apart from other tomatoes, please',
    },
    input: async (req) => {
      const body = req.body as { borrower: { id: string } };
      const name = body.borrower.id.startsWith('usr_') ? await deps.accountName(body.borrower.id) : null;
      if (name === null) {
        throw new AppError('NOT_FOUND', `No account has the id ${body.borrower.id}`, {
          field: 'borrower.id',
          reason: 'unknown-recipient',
        });
      }
      const { seedLotId } = req.params as { seedLotId: string };
      return {
        ...(req.body as object),
        seedLotId,
        borrower: { id: body.borrower.id, name },
        callerName: stater(req),
      } as never;
    },
  });
};

/** Seed loans under /api/loans (docs/seed-lots.md, Lending): lists, a loan, and its return. */
export const seedLoanRoutes: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '',
    summary: 'List seed loans',
    description:
      'The loans lent by the caller, or by the organization it acts for (any member acting for it reads them), ' +
      'newest first; `role=borrower`: the caller’s own borrowed loans. `status` narrows it: `open` (not returned, ' +
      'not yet due), `overdue` (not returned after `dueAt`, by the service’s clock) or `returned`; `seedLotId` to ' +
      `one lot. Each loan carries \`plantsGrown\`: the plants its borrower registered from the lot since. ${PAGING}`,
    tags: TAGS,
    policy: {
      permission: 'plants:read',
      object: { rule: 'own', why: 'the loans of the caller or the organization it acts for' },
    },
    subject: seedLoanList,
    page: { item: SeedLoan },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:loanId',
    summary: 'Read a seed loan',
    description:
      `A loan with its status (open, overdue, returned), due instant, journey events and, once returned, the lot ` +
      `the seed became. \`plantsGrown\` lists the plants the borrower registered from the loaned lot since it was ` +
      `lent: the ones a return may name. ${PARTIES}`,
    tags: TAGS,
    policy: {
      permission: 'plants:read',
      object: { rule: 'party', field: 'loanId', record: 'seed loan', why: 'its lender and its borrower' },
    },
    subject: seedLoanGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/:loanId/return',
    summary: 'Return a seed loan',
    description:
      'The borrower returns seed saved from plants grown from the loan: a NEW seed lot held by the lender (the ' +
      'account or organization that lent), of the loaned lot’s crop and variety, whose `parentPlantIds` are the ' +
      'plants named, so the lineage runs lot → plants → new lot. Each plant must be one the borrower registered ' +
      'from the loaned lot since it was lent (`plantsGrown` of the loan): any other is 400 VALIDATION_ERROR ' +
      '(`reason: not-grown-from-loan`, `details.plantIds`). Also `quantity` (amount and unit), `harvestYear` and ' +
      '`notes`. A loan returns once: again is 409 CONFLICT (`reason: loan-returned`). Only the borrower returns ' +
      '(the lender is 403 FORBIDDEN, `reason: not-borrower`; anyone else 404). The return is a `seed-saving` ' +
      'journey event on the ledger of the first plant named, handled by the borrower with the lender as recipient ' +
      `(\`returnEventId\`), and the new lot’s first quantity is recorded with reason \`returned\`. ${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      object: { rule: 'party', field: 'loanId', record: 'seed loan', why: 'its borrower' },
    },
    subject: seedLoanReturn,
    errors: ['NOT_FOUND', 'CONFLICT', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      parentPlantIds: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MF'],
      quantity: { amount: 150, unit: 'seeds' },
      harvestYear: 2027,
      notes: 'Saved from the two best plants',
    },
    input: async (req) => {
      const { loanId } = req.params as { loanId: string };
      return { ...(req.body as object), loanId, callerName: stater(req) } as never;
    },
  });
};
