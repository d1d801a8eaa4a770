import { type Static, Type } from '@sinclair/typebox';
import { PartyInput, PrefixedId, SeedLotId, Text, Timestamp } from './common.js';
import { defineEvent, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { PlantId, PlantName, StringEnum } from './plants.js';
import { MAX_SEED_LOT_PARENTS, SEED_LOT_UNITS, SEED_LOT_YEARS } from './seed-lots.js';

/**
 * Seed lending (docs/seed-lots.md, Lending; ADR 293–295): a library (a lot's holder, a person or an organization)
 * lends seed of a lot to a borrower until the end of a season; the borrower returns seed saved from the plants grown
 * from it as a new lot of the library, whose parents are those plants. Each loan and return is a journey event.
 */

export const SeedLoanId = PrefixedId('sln', 'Seed loan identifier');

/** The seasons a loan falls due at the end of (meteorological; ADR 293). */
export const LOAN_SEASONS = ['spring', 'summer', 'autumn', 'winter'] as const;
export type LoanSeason = (typeof LOAN_SEASONS)[number];

/** A due season, `YYYY-season`, e.g. `2027-autumn`. */
export const DUE_SEASON_PATTERN = '^(19|20|21)\\d{2}-(spring|summer|autumn|winter)$';

export const LOAN_STATUSES = ['open', 'overdue', 'returned'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

export const LOAN_ROLES = ['lender', 'borrower'] as const;
export type LoanRole = (typeof LOAN_ROLES)[number];

const DueSeason = Type.String({
  pattern: DUE_SEASON_PATTERN,
  description:
    'When the seed saved from the loan is due back: a year and a season, e.g. `2027-autumn`. The loan falls due at ' +
    'the end of the season’s last day, UTC (meteorological seasons: spring March–May, summer June–August, autumn ' +
    'September–November, winter December to February of the next year)',
  examples: ['2027-autumn'],
});

/** Set by the gateway, whatever the body says: the caller's account name, recorded on the journey event. */
const CallerName = Type.Optional(
  Text({
    minLength: 1,
    maxLength: 200,
    description: 'Set by the gateway, whatever the body says: the caller’s account name, named on the journey event',
  }),
);

const LoanQuantity = Type.Object(
  {
    amount: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1_000_000_000,
      description: 'How much is lent, in the lot’s unit; at most what the lot holds',
    }),
  },
  { additionalProperties: false },
);

export const SeedLoanInput = Type.Object(
  {
    borrower: PartyInput,
    quantity: LoanQuantity,
    dueSeason: DueSeason,
    notes: Type.Optional(Text({ maxLength: 1000, description: 'A word for the borrower' })),
    callerName: CallerName,
  },
  { additionalProperties: false },
);
export type SeedLoanInput = Static<typeof SeedLoanInput>;

const ReturnQuantity = Type.Object(
  {
    amount: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000_000, description: 'How much seed comes back' }),
    unit: StringEnum(SEED_LOT_UNITS, { description: 'seeds (a count), grams, or packets' }),
  },
  { additionalProperties: false },
);

export const SeedLoanReturnInput = Type.Object(
  {
    parentPlantIds: Type.Array(PlantId, {
      minItems: 1,
      maxItems: MAX_SEED_LOT_PARENTS,
      uniqueItems: true,
      description:
        'The plants the returned seed was saved from, mother first: each one the borrower registered from the ' +
        'loaned lot (400 `reason: not-grown-from-loan` otherwise)',
    }),
    quantity: ReturnQuantity,
    harvestYear: Type.Integer({ minimum: SEED_LOT_YEARS.min, maximum: SEED_LOT_YEARS.max }),
    notes: Type.Optional(Text({ maxLength: 2000, description: 'Kept as the new lot’s notes' })),
    callerName: CallerName,
  },
  { additionalProperties: false },
);
export type SeedLoanReturnInput = Static<typeof SeedLoanReturnInput>;

const LoanParty = Type.Object({ id: Type.String(), name: Type.String() });

/** A plant grown from a loan, named as the borrower registered it: what a return chooses among. */
export const GrownPlant = PlantName;
export type GrownPlant = PlantName;

export const SeedLoan = Named(
  'SeedLoan',
  Type.Object({
    id: SeedLoanId,
    seedLotId: SeedLotId,
    crop: Type.String({ description: 'The loaned lot’s crop' }),
    variety: Type.Union([Type.String(), Type.Null()]),
    lender: Type.Object(LoanParty.properties, {
      description: 'The library: the lot’s holder when lent, an account or an organization',
    }),
    borrower: LoanParty,
    quantity: Type.Object({ amount: Type.Number(), unit: StringEnum(SEED_LOT_UNITS) }),
    dueSeason: Type.String({ pattern: DUE_SEASON_PATTERN }),
    dueAt: Timestamp,
    status: StringEnum(LOAN_STATUSES, {
      description: 'open; overdue: open after `dueAt` (by the service’s clock); returned',
    }),
    notes: Type.Union([Type.String(), Type.Null()]),
    lentAt: Timestamp,
    lendEventId: Type.Union([Type.String(), Type.Null()], {
      description: 'The seed-sharing journey event that records the loan on the ledger',
    }),
    plantsGrown: Type.Array(GrownPlant, {
      description:
        'The plants the borrower registered from the loaned lot, in registration order, each with its names: the ' +
        'ones a return may name (by `id`)',
    }),
    returnedAt: Type.Union([Timestamp, Type.Null()]),
    returnLotId: Type.Union([SeedLotId, Type.Null()], {
      description: 'The new lot the returned seed became, held by the lender; its parents are the plants named',
    }),
    returnEventId: Type.Union([Type.String(), Type.Null()], {
      description: 'The seed-saving journey event that records the return on the ledger',
    }),
  }),
);
export type SeedLoan = Static<typeof SeedLoan>;

export const SeedLoanListQuery = Type.Object({
  role: Type.Optional(
    StringEnum(LOAN_ROLES, {
      description:
        'lender (default): the loans of the caller or the organization it acts for; borrower: the caller’s own',
    }),
  ),
  status: Type.Optional(StringEnum(LOAN_STATUSES)),
  seedLotId: Type.Optional(SeedLotId),
  ...PageQuery.properties,
});

const ByLoan = Type.Object({ loanId: SeedLoanId });

export const seedLoanCreate = defineSubject({
  subject: 'plants.seed-loan.create',
  request: Type.Object({ seedLotId: SeedLotId, ...SeedLoanInput.properties }, { additionalProperties: false }),
  reply: SeedLoan,
  summary: 'Lend seed of a lot: the lot’s quantity goes down and the loan is a seed-sharing journey event',
});

export const seedLoanGet = defineSubject({
  subject: 'plants.seed-loan.get',
  request: ByLoan,
  reply: SeedLoan,
  summary: 'Read a loan: to its lender and borrower',
});

export const seedLoanList = defineSubject({
  subject: 'plants.seed-loan.list',
  request: SeedLoanListQuery,
  reply: Type.Object({ items: Type.Array(SeedLoan), pagination: Pagination }),
  summary: 'The loans of a lender, or the caller’s own as borrower, newest first',
});

export const seedLoanReturn = defineSubject({
  subject: 'plants.seed-loan.return',
  request: Type.Object({ ...ByLoan.properties, ...SeedLoanReturnInput.properties }, { additionalProperties: false }),
  reply: SeedLoan,
  summary: 'Return a loan as a new lot of the lender, saved from the plants grown from it',
});

/** Seed was lent: the borrower (`audience`) is told (ADR 296). */
export const seedLoanLent = defineEvent({
  subject: 'evt.plants.seed-loan.lent',
  payload: Type.Object({
    loanId: Type.String(),
    seedLotId: Type.String(),
    crop: Type.String(),
    variety: Type.Union([Type.String(), Type.Null()]),
    lenderId: Type.String(),
    lenderName: Type.String(),
    borrowerId: Type.String(),
    amount: Type.Number(),
    unit: Type.String(),
    dueSeason: Type.String(),
    audience: Type.Array(Type.String(), { description: 'Who is told: the borrower' }),
  }),
});
