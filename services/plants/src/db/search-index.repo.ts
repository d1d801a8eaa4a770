import type { Plant, SearchHit, SearchType } from '@rootline/contracts';
import { type Db, executeRows, fixedStatement } from '@rootline/db';
import { sql } from 'drizzle-orm';
import { matchKind } from '../domain/search.js';
import type { IndexedPlant, SearchIndex } from '../domain/search-index.js';
import { PUBLIC_COLUMNS, type PublicPlantRecord, toPlant } from './plants.repo.js';

const INDEXED = sql.raw(`p.id, p.search_species as species, p.search_location as location, p.search_owner as owner`);

/**
 * The oldest transaction still running (`pg_snapshot_xmin` of the current snapshot), as text: every change not
 * visible now is written by it or a later one, so reading the changes from it on misses none.
 */
export async function oldestRunning(db: Db): Promise<string> {
  const [row] = await executeRows<{ xmin: string }>(
    db,
    sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`,
  );
  return row!.xmin;
}

const plantsAfter = fixedStatement(
  'plants_search_index_after',
  sql`select ${INDEXED} from "plants"."plants" p where p.id > ${sql.placeholder('after')}
    order by p.id limit ${sql.placeholder('limit')}`,
);

/** The search texts of the plants after `after` in primary-key order (the first batch after ''), `limit` of them. */
export function indexedPlantsAfter(db: Db, after: string, limit: number): Promise<IndexedPlant[]> {
  return plantsAfter<IndexedPlant>(db, { after, limit });
}

const changesAfter = fixedStatement(
  'plants_search_index_changes',
  sql`select ${INDEXED}, p.search_changed::text as changed
    from "plants"."plants" p
    where p.search_changed >= ${sql.placeholder('from')}::xid8
      and (p.search_changed, p.id collate "C") > (${sql.placeholder('afterXid')}::xid8, ${sql.placeholder('afterId')} collate "C")
    order by p.search_changed, p.id collate "C" limit ${sql.placeholder('limit')}`,
);

/**
 * Plants whose search texts were written by transaction `from` or a later one, after (`afterXid`, `afterId`) in
 * that order, `limit` of them.
 */
export function searchChangesAfter(
  db: Db,
  from: string,
  after: { xid: string; id: string },
  limit: number,
): Promise<(IndexedPlant & { changed: string })[]> {
  return changesAfter(db, { from, afterXid: after.xid, afterId: after.id, limit });
}

const plantsByIds = fixedStatement(
  'plants_search_page_rows',
  sql`select ${PUBLIC_COLUMNS} from "plants"."plants" p
    where p.id = any(array(select jsonb_array_elements_text(${sql.placeholder('ids')}::jsonb)))`,
);

/** The plants of `ids` in their public shape, by id (one statement, one index probe each); missing ones are absent. */
export async function plantsOfIds(db: Db, ids: readonly string[]): Promise<Map<string, Plant>> {
  if (ids.length === 0) return new Map();
  const rows = await plantsByIds<PublicPlantRecord>(db, { ids: JSON.stringify(ids) });
  return new Map(rows.map((r) => [r.id, toPlant(r)]));
}

/**
 * A search answered by the in-memory index: its page ranked there, the page's plants read by id from `db` (and
 * from `primary` those `db` does not hold yet, a replica being behind the index), in the shape `searchPlants` gives.
 */
export async function searchIndexed(
  db: Db,
  primary: Db,
  index: SearchIndex,
  q: string,
  types: readonly SearchType[],
  offset: number,
  limit: number,
): Promise<{ items: Omit<SearchHit, 'coverPhoto'>[]; total: number; totalIsEstimate: boolean }> {
  const page = index.search(q, types, offset, limit);
  const ids = page.hits.map((h) => h.id);
  const rows = await plantsOfIds(db, ids);
  const missing = ids.filter((id) => !rows.has(id));
  if (missing.length > 0 && primary !== db) for (const [id, p] of await plantsOfIds(primary, missing)) rows.set(id, p);
  return {
    items: page.hits.flatMap((h) => {
      const plant = rows.get(h.id);
      return plant ? [{ ...plant, match: { field: types[h.field]!, kind: matchKind(h.rank) } }] : [];
    }),
    total: page.total,
    totalIsEstimate: page.totalIsEstimate,
  };
}
