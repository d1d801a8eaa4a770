import { LOW_VIABILITY, type SeedLotViability, type ViabilityBasis } from '@rootline/contracts/seed-lots';
import erfc from '@stdlib/math-base-special-erfc';
import quantile from '@stdlib/stats-base-dists-normal-quantile';

/**
 * Approximate life expectancy of vegetable seed stored under favourable conditions, in years: the table "Approximate
 * life expectancy of vegetable seeds stored under favorable conditions" of D. N. Maynard and G. J. Hochmuth,
 * Knott's Handbook for Vegetable Growers, 4th edition (John Wiley & Sons, 1997), as Iowa State University
 * Extension reproduces it. Keys are English crop names in lower case; `CROP_ALIASES` maps other spellings.
 */
export const SEED_LONGEVITY_YEARS: Readonly<Record<string, number>> = {
  asparagus: 3,
  bean: 3,
  beet: 4,
  broccoli: 3,
  'brussels sprouts': 4,
  cabbage: 4,
  carrot: 3,
  cauliflower: 4,
  celeriac: 3,
  celery: 3,
  chard: 4,
  chicory: 4,
  'chinese cabbage': 3,
  collards: 5,
  'sweet corn': 2,
  cucumber: 5,
  eggplant: 4,
  endive: 5,
  fennel: 4,
  kale: 4,
  kohlrabi: 3,
  leek: 2,
  lettuce: 6,
  muskmelon: 5,
  mustard: 4,
  'new zealand spinach': 3,
  okra: 2,
  onion: 1,
  parsley: 1,
  parsnip: 1,
  pea: 3,
  pepper: 2,
  pumpkin: 4,
  radish: 5,
  rutabaga: 4,
  salsify: 1,
  spinach: 3,
  squash: 4,
  tomato: 4,
  turnip: 4,
  watermelon: 4,
};

/** Other names of the table's crops (plurals are handled by `longevityKey`). */
const CROP_ALIASES: Readonly<Record<string, string>> = {
  'swiss chard': 'chard',
  silverbeet: 'chard',
  corn: 'sweet corn',
  maize: 'sweet corn',
  aubergine: 'eggplant',
  melon: 'muskmelon',
  cantaloupe: 'muskmelon',
  'bell pepper': 'pepper',
  'chili pepper': 'pepper',
  chilli: 'pepper',
  swede: 'rutabaga',
  courgette: 'squash',
  zucchini: 'squash',
  beetroot: 'beet',
  'pak choi': 'chinese cabbage',
  'bok choy': 'chinese cabbage',
  'napa cabbage': 'chinese cabbage',
};

/** The source of `SEED_LONGEVITY_YEARS`, as the API and docs cite it. */
export const SEED_LONGEVITY_SOURCE =
  'Maynard & Hochmuth, Knott’s Handbook for Vegetable Growers, 4th ed. (1997): approximate life expectancy of ' +
  'vegetable seeds stored under favorable conditions';

/** Viability assumed at harvest when a lot has no test: a common germination standard for vegetable seed. */
export const ASSUMED_INITIAL_VIABILITY = 0.9;

/**
 * The decline model's calibration: a lot at `ASSUMED_INITIAL_VIABILITY` when harvested falls to 50 % when it reaches
 * the crop's life expectancy. Viability follows the seed viability equation of Ellis & Roberts (1980, Annals of
 * Botany 45: 13–30, "Improved equations for the prediction of seed longevity") at constant storage:
 * v(t) = Φ(Kᵢ − t/σ), a negative cumulative normal curve over time, the model gene banks plan viability monitoring
 * with (FAO Genebank Standards for Plant Genetic Resources for Food and Agriculture, 2014). With the calibration,
 * σ = L / Φ⁻¹(0.9).
 */
const PROBIT_AT_ASSUMED = quantile(ASSUMED_INITIAL_VIABILITY, 0, 1);

/** Harvest taken as the middle of the harvest year (1 July, UTC) when the age of a lot is counted. */
export function harvestDate(harvestYear: number): Date {
  return new Date(Date.UTC(harvestYear, 6, 1));
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/** Years from `from` to `to`, never below 0. */
function yearsBetween(from: Date, to: Date): number {
  return Math.max(0, (to.getTime() - from.getTime()) / YEAR_MS);
}

/** The key of a crop in the longevity table, or null: lower case, trimmed, an alias or a plural resolved. */
export function longevityKey(crop: string): string | null {
  const name = crop.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  const candidates = [name, name.replace(/es$/, ''), name.replace(/s$/, '')];
  for (const c of candidates) {
    if (SEED_LONGEVITY_YEARS[c] !== undefined) return c;
    const alias = CROP_ALIASES[c];
    if (alias) return alias;
  }
  return null;
}

/** The crop's life expectancy in years, or null when the table does not list it. */
export function longevityYears(crop: string): number | null {
  const key = longevityKey(crop);
  return key === null ? null : (SEED_LONGEVITY_YEARS[key] ?? null);
}

/** Φ, the standard normal distribution function. */
function phi(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** Rates of exactly 0 or 1 have no probit: they are held just inside. */
const clampRate = (r: number) => Math.min(0.999, Math.max(0.001, r));

export interface ViabilityInput<T> {
  crop: string;
  harvestYear: number;
  /** The latest germination test (by `testedOn`), with its rate. */
  lastTest: (T & { testedOn: string; rate: number }) | null;
  now: Date;
}

/**
 * The expected share of a lot's seed that germinates `now`. With a test: its rate carried from the test day to now
 * along the crop's decline (the rate itself when the crop is not in the table). Without one: an assumed 90 % at
 * harvest carried to now (null when the crop is not in the table). See `PROBIT_AT_ASSUMED` for the model.
 */
export function expectedViability<T>(input: ViabilityInput<T>): Omit<SeedLotViability, 'lastTest'> & {
  lastTest: ViabilityInput<T>['lastTest'];
} {
  const harvest = harvestDate(input.harvestYear);
  const ageYears = yearsBetween(harvest, input.now);
  const longevity = longevityYears(input.crop);
  let expected: number | null;
  let basis: ViabilityBasis;
  if (input.lastTest) {
    basis = 'test';
    const testedAt = new Date(`${input.lastTest.testedOn}T12:00:00Z`);
    if (longevity === null || input.lastTest.rate === 0) expected = input.lastTest.rate;
    else {
      const sigma = longevity / PROBIT_AT_ASSUMED;
      const since = yearsBetween(testedAt, input.now);
      expected = phi(quantile(clampRate(input.lastTest.rate), 0, 1) - since / sigma);
      // Not above what was measured: time never raises viability.
      expected = Math.min(expected, input.lastTest.rate);
    }
  } else if (longevity !== null) {
    basis = 'age';
    expected = phi(PROBIT_AT_ASSUMED - ageYears / (longevity / PROBIT_AT_ASSUMED));
  } else {
    basis = 'none';
    expected = null;
  }
  const rounded = expected === null ? null : Math.round(expected * 1000) / 1000;
  return {
    expected: rounded,
    basis,
    low: rounded !== null && rounded < LOW_VIABILITY,
    ageYears: Math.round(ageYears * 10) / 10,
    longevityYears: longevity,
    lastTest: input.lastTest,
  };
}

/** The germination rate of a test: germinated ÷ sown, to three decimals. */
export function germinationRate(seedsSown: number, germinated: number): number {
  return Math.round((germinated / seedsSown) * 1000) / 1000;
}

/**
 * Why a germination test cannot be recorded, or null: more seeds germinated than sown, a day that does not exist,
 * a day in the future or before the lot's harvest year.
 */
export function germinationTestProblem(
  t: { testedOn: string; seedsSown: number; germinated: number },
  harvestYear: number,
  now: Date,
): { field: string; message: string } | null {
  if (t.germinated > t.seedsSown) {
    return { field: 'germinated', message: 'germinated: at most the seeds sown' };
  }
  const day = new Date(`${t.testedOn}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== t.testedOn) {
    return { field: 'testedOn', message: 'testedOn: no such day' };
  }
  if (t.testedOn > now.toISOString().slice(0, 10)) {
    return { field: 'testedOn', message: 'testedOn: not a day in the future' };
  }
  if (Number(t.testedOn.slice(0, 4)) < harvestYear) {
    return { field: 'testedOn', message: 'testedOn: not before the lot’s harvest year' };
  }
  return null;
}
