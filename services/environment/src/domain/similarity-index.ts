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

/**
 * Every plant's feature vector, stored by feature (one Float32Array column per feature, 30 × 4 bytes a plant: 12 MB
 * for 100,000 plants; feature values are float32 already, so nothing is lost) and scanned whole for each query, one column at a time: tight loops over typed arrays, and
 * only the columns of the query's present features are read. No I/O: the service fills it from its table and
 * keeps it current (see ADR 056).
 */
export class SimilarityIndex {
  private capacity = 1024;
  private columns: Float32Array[] = Array.from({ length: FEATURE_COUNT }, () => new Float32Array(1024));
  private readonly ids: string[] = [];
  private readonly species: (string | null)[] = [];
  private readonly slots = new Map<string, number>();
  // Scratch space of a scan, kept between queries.
  private sums = new Float64Array(1024);
  private counts = new Uint8Array(1024);
  private weighted = new Float64Array(1024);
  private weights = new Float64Array(1024);

  get size(): number {
    return this.ids.length;
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
    for (let f = 0; f < FEATURE_COUNT; f++) this.columns[f]![slot] = vector[f] ?? Number.NaN;
  }

  private grow(): void {
    this.capacity *= 2;
    this.columns = this.columns.map((column) => {
      const grown = new Float32Array(this.capacity);
      grown.set(column);
      return grown;
    });
    this.sums = new Float64Array(this.capacity);
    this.counts = new Uint8Array(this.capacity);
    this.weighted = new Float64Array(this.capacity);
    this.weights = new Float64Array(this.capacity);
  }

  /** The stored vector of a plant, if it has one. */
  vectorOf(plantId: string): Float64Array | undefined {
    const slot = this.slots.get(plantId);
    return slot === undefined ? undefined : Float64Array.from(this.columns, (column) => column[slot]!);
  }

  /**
   * The `limit` plants most similar to `plantId` (itself excluded), by the same score as `similarity()` (the same
   * additions in the same order, so the same floating-point result); plants sharing no category with it are
   * skipped. Ties go to the smaller plant id. `compared` counts the plants scored.
   */
  nearest(plantId: string, limit: number): { items: Neighbour[]; compared: number } {
    const query = this.vectorOf(plantId);
    if (!query) return { items: [], compared: 0 };
    const n = this.ids.length;
    const { sums, counts, weighted, weights } = this;
    weighted.fill(0, 0, n);
    weights.fill(0, 0, n);
    // Category by category, in the order similarity() adds them; within one, its features in their order.
    for (let c = 0; c < SIMILARITY_CATEGORIES.length; c++) {
      let any = false;
      for (let f = 0; f < FEATURE_COUNT; f++) {
        const x = query[f]!;
        if (FEATURE_CATEGORY[f] !== c || Number.isNaN(x)) continue;
        if (!any) {
          sums.fill(0, 0, n);
          counts.fill(0, 0, n);
          any = true;
        }
        const column = this.columns[f]!;
        if (FEATURE_IS_CATEGORICAL[f]) {
          for (let i = 0; i < n; i++) {
            const y = column[i]!;
            if (!Number.isNaN(y)) {
              counts[i]!++;
              if (y !== x) sums[i]! += 1;
            }
          }
        } else {
          for (let i = 0; i < n; i++) {
            const y = column[i]!;
            if (!Number.isNaN(y)) {
              counts[i]!++;
              sums[i]! += Math.abs(x - y);
            }
          }
        }
      }
      if (!any) continue;
      const w = CATEGORY_WEIGHTS[c]!;
      for (let i = 0; i < n; i++) {
        const k = counts[i]!;
        if (k !== 0) {
          weighted[i]! += w * (1 - sums[i]! / k);
          weights[i]! += w;
        }
      }
    }
    const self = this.slots.get(plantId);
    const top: { slot: number; score: number }[] = [];
    let compared = 0;
    for (let slot = 0; slot < n; slot++) {
      if (slot === self || weights[slot] === 0) continue;
      compared++;
      const score = (100 * weighted[slot]!) / weights[slot]!;
      if (top.length === limit && !this.before(score, slot, top[limit - 1]!)) continue;
      let i = top.length;
      while (i > 0 && this.before(score, slot, top[i - 1]!)) i--;
      top.splice(i, 0, { slot, score });
      if (top.length > limit) top.pop();
    }
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
    return { items, compared };
  }

  /** True when (score, slot) ranks before `other`: higher score, then smaller plant id. */
  private before(score: number, slot: number, other: { slot: number; score: number }): boolean {
    if (score !== other.score) return score > other.score;
    return this.ids[slot]! < this.ids[other.slot]!;
  }
}
