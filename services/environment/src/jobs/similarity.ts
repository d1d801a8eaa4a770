import type { Db } from '@rootline/db';
import { rowsWrittenSince } from '../db/environment.repo.js';
import { type Neighbour, SimilarityIndex } from '../domain/similarity-index.js';

/** Answers kept, by plant and limit, each valid while the index is at the version it was computed at. */
const ANSWERS = 512;

type Answer = { items: Neighbour[]; compared: number };

/** The replica's similarity index and how it is kept current. */
export interface SimilaritySearch {
  /** Reads what was written since the last call (every plant on the first), then answers from memory. */
  nearest(plantId: string, limit: number): Promise<Answer>;
  /** Brings the index up to date with the table. */
  refresh(): Promise<void>;
  readonly size: number;
}

/**
 * An in-memory index of every plant's feature vector, brought up to date before each query from the rows
 * written since its transaction-id watermark (one indexed query, usually returning nothing), so a write on any
 * replica is seen by the next query on every replica (ADR 056). Concurrent queries share one refresh, and an answer
 * is kept (least recently used out) until the index changes, so identical requests do the work once (ADR 160).
 */
export function createSimilaritySearch(db: Db): SimilaritySearch {
  const index = new SimilarityIndex();
  let watermark = 0;
  let inFlight: Promise<void> | undefined;
  const answers = new Map<string, { version: number; answer: Answer }>();
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
      const key = `${plantId}:${limit}`;
      const kept = answers.get(key);
      answers.delete(key);
      if (kept?.version === index.version) {
        answers.set(key, kept);
        return kept.answer;
      }
      const { items, compared } = index.nearest(plantId, limit);
      const answer = { items, compared };
      answers.set(key, { version: index.version, answer });
      if (answers.size > ANSWERS) answers.delete(answers.keys().next().value!);
      return answer;
    },
    get size() {
      return index.size;
    },
  };
}
