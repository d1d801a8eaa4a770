import type { Db } from '@rootline/db';
import { and, count, gte, lt, type SQL } from 'drizzle-orm';
import { plants } from './schema.js';

/** Plants registered in [from, to) by privacy level. */
export async function privacyLevelCounts(
  db: Db,
  from: string | undefined,
  to: string | undefined,
): Promise<{ level: string; count: number }[]> {
  const parts: SQL[] = [];
  if (from) parts.push(gte(plants.registeredAt, from));
  if (to) parts.push(lt(plants.registeredAt, to));
  return db
    .select({ level: plants.privacyLevel, count: count() })
    .from(plants)
    .where(parts.length ? and(...parts) : undefined)
    .groupBy(plants.privacyLevel);
}
