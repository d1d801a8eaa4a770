import { createHash } from 'node:crypto';
import { FARM_READING_METRICS, type FarmReadingMetric } from '@rootline/contracts/farm-batches';

/** A reading as the fingerprint sees it: its instant (ISO 8601) and its metrics, absent ones undefined or null. */
export type ReadingValues = { at: string } & Partial<Record<FarmReadingMetric, number | null | undefined>>;

/**
 * The fingerprint of a reading: a digest of its instant and of every metric's value (absent as null), so a reading
 * sent twice (a retried request, a sensor gateway resending its buffer) has one fingerprint, and one that differs
 * in any value or in its instant another. Readings are unique per batch on (at, fingerprint).
 */
export function readingFingerprint(r: ReadingValues): string {
  const values = FARM_READING_METRICS.map((m) => r[m] ?? null);
  return createHash('sha256')
    .update(JSON.stringify([new Date(r.at).toISOString(), values]))
    .digest('base64url')
    .slice(0, 22);
}

/** The items of a list whose key was not seen before in it, in order: a request's repeated readings count once. */
export function firstOfEach<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
