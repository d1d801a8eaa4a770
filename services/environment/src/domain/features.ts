import {
  AIRFLOW_LEVELS,
  CONTAINER_MATERIALS,
  CONTAINER_TYPES,
  DRAINAGE_LEVELS,
  type EnvironmentCategory,
  type EnvironmentData,
  GROWING_SETTINGS,
  LIGHT_SOURCES,
  SOIL_TYPES,
  WATER_SOURCES,
  WATERING_METHODS,
} from '@rootline/contracts/environment';

/**
 * The conditions two plants are compared on, as one fixed-length vector per plant. A number is scaled to 0–1
 * over a span that covers realistic values (clamped beyond it), so a difference of 1 means "opposite ends"; a
 * category is stored as its index and two plants either match (difference 0) or not (1). Missing values are NaN.
 * Growth metrics are outcomes, not conditions, and are left out.
 */
export type SimilarityCategory = Exclude<EnvironmentCategory, 'growth'>;

/** Weight of each category in the overall similarity (sum 1): climate and light shape growth most. */
export const SIMILARITY_WEIGHTS: Record<SimilarityCategory, number> = {
  climate: 0.2,
  lighting: 0.2,
  soil: 0.15,
  watering: 0.15,
  nutrients: 0.1,
  location: 0.1,
  container: 0.05,
  surroundings: 0.05,
};
export const SIMILARITY_CATEGORIES = Object.keys(SIMILARITY_WEIGHTS) as SimilarityCategory[];

type Getter = (env: EnvironmentData) => unknown;
export interface Feature {
  category: SimilarityCategory;
  parameter: string;
  get: Getter;
  /** Numeric span [lo, hi]; absent for a categorical feature. */
  span?: readonly [number, number];
  /** Values of a categorical feature. */
  values?: readonly (string | boolean)[];
}

const num = (category: SimilarityCategory, field: string, lo: number, hi: number): Feature => ({
  category,
  parameter: `${category}.${field}`,
  get: (env) => (env[category] as Record<string, unknown> | undefined)?.[field],
  span: [lo, hi],
});
const cat = (category: SimilarityCategory, field: string, values: readonly (string | boolean)[]): Feature => ({
  category,
  parameter: `${category}.${field}`,
  get: (env) => (env[category] as Record<string, unknown> | undefined)?.[field],
  values,
});
const count = (field: 'companionPlants' | 'pests' | 'diseases'): Feature => ({
  category: 'surroundings',
  parameter: `surroundings.${field}`,
  get: (env) => env.surroundings?.[field]?.length,
  span: [0, 10],
});

/** The feature list; its order is the vector's, so append only (stored vectors keep their meaning). */
export const FEATURES: readonly Feature[] = [
  num('soil', 'ph', 0, 14),
  num('soil', 'organicMatterPercent', 0, 100),
  cat('soil', 'drainage', DRAINAGE_LEVELS),
  cat('soil', 'type', SOIL_TYPES),
  num('nutrients', 'nitrogenPpm', 0, 300),
  num('nutrients', 'phosphorusPpm', 0, 100),
  num('nutrients', 'potassiumPpm', 0, 400),
  num('nutrients', 'ecMsCm', 0, 5),
  num('nutrients', 'tdsPpm', 0, 3000),
  num('lighting', 'hoursPerDay', 0, 24),
  num('lighting', 'ppfd', 0, 2000),
  num('lighting', 'dli', 0, 60),
  cat('lighting', 'source', LIGHT_SOURCES),
  num('climate', 'temperatureC', -10, 45),
  num('climate', 'humidityPercent', 0, 100),
  num('climate', 'co2Ppm', 300, 1500),
  cat('climate', 'airflow', AIRFLOW_LEVELS),
  cat('location', 'setting', GROWING_SETTINGS),
  cat('container', 'type', CONTAINER_TYPES),
  cat('container', 'material', CONTAINER_MATERIALS),
  num('container', 'volumeLiters', 0, 100),
  cat('container', 'hasDrainage', [false, true]),
  num('watering', 'frequencyPerWeek', 0, 14),
  num('watering', 'ph', 0, 14),
  num('watering', 'tdsPpm', 0, 1000),
  cat('watering', 'method', WATERING_METHODS),
  cat('watering', 'source', WATER_SOURCES),
  count('companionPlants'),
  count('pests'),
  count('diseases'),
];
export const FEATURE_COUNT = FEATURES.length;

/** Category index (into SIMILARITY_CATEGORIES) of each feature, and whether it is categorical. */
export const FEATURE_CATEGORY = Uint8Array.from(FEATURES.map((f) => SIMILARITY_CATEGORIES.indexOf(f.category)));
export const FEATURE_IS_CATEGORICAL = FEATURES.map((f) => f.values !== undefined);
export const CATEGORY_WEIGHTS = Float64Array.from(SIMILARITY_CATEGORIES.map((c) => SIMILARITY_WEIGHTS[c]));

/** The feature vector of an environment: scaled numbers, category indexes, NaN where missing. */
export function featureVector(env: EnvironmentData): number[] {
  return FEATURES.map((f) => {
    const v = f.get(env);
    if (f.values) {
      const i = f.values.indexOf(v as string | boolean);
      return i < 0 ? Number.NaN : i;
    }
    if (typeof v !== 'number') return Number.NaN;
    const [lo, hi] = f.span!;
    // Rounded to float32, so the index stores it in half the memory without changing any score.
    return Math.fround(Math.min(1, Math.max(0, (v - lo) / (hi - lo))));
  });
}

export interface SimilarityResult {
  /** 0–100, or null when the two share no category. */
  similarity: number | null;
  /** Per category: 0–1, or null when not both have a value in it. */
  categories: (number | null)[];
}

/**
 * Weighted per-category similarity of two feature vectors. A category's similarity is 1 − the mean difference
 * over the features both plants have; the overall score is 100 × the weighted mean over the categories both
 * have (weights renormalised), so a missing category neither helps nor hurts.
 */
export function similarity(a: ArrayLike<number>, b: ArrayLike<number>): SimilarityResult {
  const sums = new Float64Array(SIMILARITY_CATEGORIES.length);
  const counts = new Uint16Array(SIMILARITY_CATEGORIES.length);
  for (let f = 0; f < FEATURE_COUNT; f++) {
    const x = a[f]!;
    const y = b[f]!;
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    const c = FEATURE_CATEGORY[f]!;
    sums[c]! += FEATURE_IS_CATEGORICAL[f] ? (x === y ? 0 : 1) : Math.abs(x - y);
    counts[c]!++;
  }
  const categories: (number | null)[] = [];
  let weighted = 0;
  let weights = 0;
  for (let c = 0; c < SIMILARITY_CATEGORIES.length; c++) {
    if (counts[c] === 0) {
      categories.push(null);
      continue;
    }
    const s = 1 - sums[c]! / counts[c]!;
    categories.push(s);
    weighted += CATEGORY_WEIGHTS[c]! * s;
    weights += CATEGORY_WEIGHTS[c]!;
  }
  return { similarity: weights > 0 ? (100 * weighted) / weights : null, categories };
}
