import {
  CATEGORY_WEIGHTS,
  FEATURE_CATEGORY,
  FEATURE_COUNT,
  FEATURE_IS_CATEGORICAL,
  SIMILARITY_CATEGORIES,
  type SimilarityCategory,
  similarity,
} from './features.js';

export interface Neighbour {
  plantId: string;
  species: string | null;
  /** 0–100. */
  similarity: number;
  sharedCategories: SimilarityCategory[];
}

/** Plants scored first, spread evenly over the index: the k-th best of them is a floor for the k-th best of all. */
const SAMPLE = 1024;
/** Plants of those left after a category's filter scored to raise that floor. */
const SURVIVOR_SAMPLE = 256;
// The filter's partial sums add the same differences in another order than the score: a plant is dropped only when
// it is past the budget by more than rounding can explain, so the answer is exactly the full scan's.
const ROUNDING = 1e-9;

/**
 * Every plant's feature vector, stored by feature (one Float32Array column per feature, 30 × 4 bytes a plant; feature
 * values are float32 already, so nothing is lost). A query does not score every plant: it scores an even sample to
 * learn a score the k-th answer cannot fall below, then filters the plants one category at a time, highest weight
 * first, dropping each plant as soon as its weighted differences so far rule that score out; only the few left are
 * scored. The answer is exactly the full scan's (ADR 160). No I/O: the service fills it from its table and keeps it
 * current (ADR 056).
 */
export class SimilarityIndex {
  private capacity = 1024;
  private columns: Float32Array[] = Array.from({ length: FEATURE_COUNT }, () => new Float32Array(1024));
  private masks = new Uint32Array(1024);
  private readonly ids: string[] = [];
  private readonly species: (string | null)[] = [];
  private readonly slots = new Map<string, number>();
  private changes = 0;
  // Scratch space of a query, kept between queries.
  private survivors = new Int32Array(1024);
  private partial = new Float64Array(1024);
  private readonly categorySums = new Float64Array(SIMILARITY_CATEGORIES.length);
  private readonly categoryCounts = new Uint8Array(SIMILARITY_CATEGORIES.length);
  private sums = new Float64Array(1024);
  private counts = new Uint8Array(1024);

  get size(): number {
    return this.ids.length;
  }

  /** Counts the changes made: an answer computed at one version holds until the next. */
  get version(): number {
    return this.changes;
  }

  /** Adds a plant or replaces its vector. */
  upsert(plantId: string, species: string | null, vector: ArrayLike<number>): void {
    let slot = this.slots.get(plantId);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === this.capacity) this.grow();
      this.ids.push(plantId);
      this.species.push(species);
      this.slots.set(plantId, slot);
    }
    this.species[slot] = species;
    let mask = 0;
    for (let f = 0; f < FEATURE_COUNT; f++) {
      const v = vector[f] ?? Number.NaN;
      this.columns[f]![slot] = v;
      // Features past the 32nd share the top bit: the mask only tells whether two plants share anything.
      if (!Number.isNaN(v)) mask |= 1 << Math.min(f, 31);
    }
    this.masks[slot] = mask >>> 0;
    this.changes++;
  }

  /** The stored vector of a plant, if it has one. */
  vectorOf(plantId: string): Float64Array | undefined {
    const slot = this.slots.get(plantId);
    return slot === undefined ? undefined : Float64Array.from(this.columns, (column) => column[slot]!);
  }

  /**
   * The `limit` plants most similar to `plantId` (itself excluded), by the same score as `similarity()` (the same
   * additions in the same order, so the same floating-point result); plants sharing no category with it are
   * skipped. Ties go to the smaller plant id. `compared` counts the plants sharing a category with it, `scored`
   * those whose score was computed.
   */
  nearest(plantId: string, limit: number): { items: Neighbour[]; compared: number; scored: number } {
    const self = this.slots.get(plantId);
    if (self === undefined) return { items: [], compared: 0, scored: 0 };
    const query = this.vectorOf(plantId)!;
    const n = this.ids.length;
    const queryMask = this.masks[self]!;
    // 1. A floor for the k-th score: the k-th best of an even sample.
    let top: { slot: number; score: number }[] = [];
    let scored = 0;
    const consider = (slot: number) => {
      if (slot === self) return;
      scored++;
      const score = this.score(query, slot);
      if (score === Number.NEGATIVE_INFINITY) return;
      if (top.length === limit && !this.before(score, slot, top[limit - 1]!)) return;
      let i = top.length;
      while (i > 0 && this.before(score, slot, top[i - 1]!)) i--;
      top.splice(i, 0, { slot, score });
      if (top.length > limit) top.pop();
    };
    const step = Math.max(1, Math.floor(n / SAMPLE));
    for (let slot = 0; slot < n; slot += step) consider(slot);
    const floor = top.length === limit ? top[limit - 1]!.score : Number.NEGATIVE_INFINITY;

    // 2. A plant scores at least `floor` only if Σ w_c·d_c over the categories both have (d_c: its mean difference in
    // c) is at most (1 − floor/100)·W, W the weight of those categories, itself at most the weight of the query's
    // categories. Every term is ≥ 0, so a plant is out as soon as its sum so far passes that budget.
    const categories = SIMILARITY_CATEGORIES.map((_, c) => c)
      .map((c) => ({ c, features: this.presentFeatures(query, c) }))
      .filter(({ features }) => features.length > 0)
      .sort((a, b) => CATEGORY_WEIGHTS[b.c]! - CATEGORY_WEIGHTS[a.c]!);
    let queryWeight = 0;
    for (const { c } of categories) queryWeight += CATEGORY_WEIGHTS[c]!;
    const budgetFor = (floor: number) =>
      floor === Number.NEGATIVE_INFINITY ? Number.POSITIVE_INFINITY : (1 - floor / 100) * queryWeight + ROUNDING;
    let budget = budgetFor(floor);
    // Feature by feature over the plants left, so each loop reads one column with one comparison.
    const { survivors, partial, sums, counts } = this;
    let m = 0;
    for (let slot = 0; slot < n; slot++) {
      if (slot === self || (this.masks[slot]! & queryMask) === 0) continue;
      survivors[m] = slot;
      partial[m++] = 0;
    }
    const compared = m;
    for (const { c, features } of categories) {
      sums.fill(0, 0, m);
      counts.fill(0, 0, m);
      for (const f of features) {
        const column = this.columns[f]!;
        const x = query[f]!;
        if (FEATURE_IS_CATEGORICAL[f]) {
          for (let i = 0; i < m; i++) {
            const y = column[survivors[i]!]!;
            if (!Number.isNaN(y)) {
              counts[i]!++;
              if (y !== x) sums[i]! += 1;
            }
          }
        } else {
          for (let i = 0; i < m; i++) {
            const y = column[survivors[i]!]!;
            if (!Number.isNaN(y)) {
              counts[i]!++;
              sums[i]! += Math.abs(x - y);
            }
          }
        }
      }
      const w = CATEGORY_WEIGHTS[c]!;
      let kept = 0;
      for (let i = 0; i < m; i++) {
        const k = counts[i]!;
        const p = k === 0 ? partial[i]! : partial[i]! + (w * sums[i]!) / k;
        if (p <= budget) {
          survivors[kept] = survivors[i]!;
          partial[kept++] = p;
        }
      }
      m = kept;
      // The plants left are the likelier neighbours: the k-th best of a sample of them raises the floor.
      if (m > 4 * SURVIVOR_SAMPLE) {
        budget = Math.min(budget, budgetFor(this.floorOf(query, survivors, m, limit, self)));
      }
    }

    // 3. The plants left, scored exactly; the sample's best are among them.
    top = [];
    for (let i = 0; i < m; i++) consider(survivors[i]!);

    const items = top.map(({ slot }) => {
      const other = Float64Array.from(this.columns, (column) => column[slot]!);
      const result = similarity(query, other);
      return {
        plantId: this.ids[slot]!,
        species: this.species[slot] ?? null,
        similarity: Math.round(result.similarity! * 100) / 100,
        sharedCategories: SIMILARITY_CATEGORIES.filter((_, c) => result.categories[c] !== null),
      };
    });
    return { items, compared, scored };
  }

  /** The k-th best score among an even sample of `slots[0, m)`, or −∞ with fewer than k. */
  private floorOf(query: Float64Array, slots: Int32Array, m: number, limit: number, self: number): number {
    const scores: number[] = [];
    const step = Math.max(1, Math.floor(m / SURVIVOR_SAMPLE));
    for (let i = 0; i < m; i += step) if (slots[i] !== self) scores.push(this.score(query, slots[i]!));
    scores.sort((a, b) => b - a);
    return scores.length >= limit ? scores[limit - 1]! : Number.NEGATIVE_INFINITY;
  }

  private presentFeatures(query: Float64Array, c: number): number[] {
    const features: number[] = [];
    for (let f = 0; f < FEATURE_COUNT; f++) if (FEATURE_CATEGORY[f] === c && !Number.isNaN(query[f]!)) features.push(f);
    return features;
  }

  /** `similarity()` of the query and a stored plant, with the same additions in the same order; −∞ if none shared. */
  private score(query: Float64Array, slot: number): number {
    const { categorySums: sums, categoryCounts: counts, columns } = this;
    sums.fill(0);
    counts.fill(0);
    for (let f = 0; f < FEATURE_COUNT; f++) {
      const x = query[f]!;
      const y = columns[f]![slot]!;
      if (Number.isNaN(x) || Number.isNaN(y)) continue;
      const c = FEATURE_CATEGORY[f]!;
      sums[c]! += FEATURE_IS_CATEGORICAL[f] ? (x === y ? 0 : 1) : Math.abs(x - y);
      counts[c]!++;
    }
    let weighted = 0;
    let weights = 0;
    for (let c = 0; c < counts.length; c++) {
      if (counts[c] === 0) continue;
      weighted += CATEGORY_WEIGHTS[c]! * (1 - sums[c]! / counts[c]!);
      weights += CATEGORY_WEIGHTS[c]!;
    }
    return weights > 0 ? (100 * weighted) / weights : Number.NEGATIVE_INFINITY;
  }

  /** True when (score, slot) ranks before `other`: higher score, then smaller plant id. */
  private before(score: number, slot: number, other: { slot: number; score: number }): boolean {
    if (score !== other.score) return score > other.score;
    return this.ids[slot]! < this.ids[other.slot]!;
  }

  private grow(): void {
    this.capacity *= 2;
    this.columns = this.columns.map((column) => {
      const grown = new Float32Array(this.capacity);
      grown.set(column);
      return grown;
    });
    const masks = new Uint32Array(this.capacity);
    masks.set(this.masks);
    this.masks = masks;
    this.survivors = new Int32Array(this.capacity);
    this.partial = new Float64Array(this.capacity);
    this.sums = new Float64Array(this.capacity);
    this.counts = new Uint8Array(this.capacity);
  }
}
