import type { Db } from '@rootline/db';
import { rowsWrittenSince } from './db/environment.repo.js';
import { type Neighbour, SimilarityIndex } from './domain/similarity-index.js';

/** The replica's similarity index and how it is kept current. */
export interface SimilaritySearch {
  /** Reads what was written since the last call (every plant on the first), then answers from memory. */
  nearest(plantId: string, limit: number): Promise<{ items: Neighbour[]; compared: number }>;
  /** Brings the index up to date with the table. */
  refresh(): Promise<void>;
  readonly size: number;
}

/**
 * An in-memory index of every plant's feature vector, brought up to date before each query from the rows
 * written since its transaction-id watermark (one indexed query, usually returning nothing), so a write on any
 * replica is seen by the next query on every replica (ADR 056). Concurrent queries share one refresh.
 */
export function createSimilaritySearch(db: Db): SimilaritySearch {
  const index = new SimilarityIndex();
  let watermark = 0;
  let inFlight: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    inFlight ??= (async () => {
      try {
        const { rows, next } = await rowsWrittenSince(db, watermark);
        for (const row of rows) {
          index.upsert(
            row.plantId,
            row.species,
            row.features.map((v) => v ?? Number.NaN),
          );
        }
        watermark = next;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };
  return {
    refresh,
    async nearest(plantId, limit) {
      await refresh();
      return index.nearest(plantId, limit);
    },
    get size() {
      return index.size;
    },
  };
}
