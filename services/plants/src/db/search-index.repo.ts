import type { Plant, SearchHit, SearchType } from '@rootline/contracts';
import { type Db, executeRows, fixedStatement } from '@rootline/db';
import { sql } from 'drizzle-orm';
import { matchKind } from '../domain/search.js';
import type { IndexedPlant, SearchIndex } from '../domain/search-index.js';
import { PUBLIC_COLUMNS, type PublicPlantRecord, toPlant } from './plants.repo.js';

const INDEXED = sql.raw(`p.id, p.search_species as species, p.search_location as location, p.search_owner as owner`);

/**
 * Where a look at the changes stands: every transaction from `xmax` on, and those of `running`, had not committed
 * when it was taken (`pg_current_snapshot()`); every other one had. A change not visible to a later read is written
 * by one of these, so the next look reads just those.
 */
export interface ChangesMark {
  xmax: string;
  running: string[];
}

/** The current snapshot's bounds, as a mark to read the next changes from. */
export async function changesMark(db: Db): Promise<ChangesMark> {
  const [row] = await executeRows<{ xmax: string; running: string[] | string }>(
    db,
    sql`select pg_snapshot_xmax(s)::text as xmax, array(select pg_snapshot_xip(s)::text) as running
      from (select pg_current_snapshot() as s) x`,
  );
  const running = row!.running;
  // postgres.js parses a text[]; PGlite too, but a driver may hand the array's literal.
  return {
    xmax: row!.xmax,
    running: Array.isArray(running)
      ? running
      : running
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean),
  };
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

const changesFrom = fixedStatement(
  'plants_search_index_changes',
  sql`select ${INDEXED}, p.search_changed::text as changed from "plants"."plants" p
    where p.search_changed >= ${sql.placeholder('from')}::xid8
      and (p.search_changed, p.id collate "C") > (${sql.placeholder('afterXid')}::xid8, ${sql.placeholder('afterId')} collate "C")
    order by p.search_changed, p.id collate "C" limit ${sql.placeholder('limit')}`,
);

const changesOf = fixedStatement(
  'plants_search_index_changes_of',
  sql`select ${INDEXED}, p.search_changed::text as changed from "plants"."plants" p
    where p.search_changed = any(array(select jsonb_array_elements_text(${sql.placeholder('xids')}::jsonb)::xid8))
      and (p.search_changed, p.id collate "C") > (${sql.placeholder('afterXid')}::xid8, ${sql.placeholder('afterId')} collate "C")
    order by p.search_changed, p.id collate "C" limit ${sql.placeholder('limit')}`,
);

/**
 * Plants whose search texts were written by a transaction of `mark` (from its `xmax` on, or one of its `running`),
 * after (`afterXid`, `afterId`) in that order, `limit` of them; `running` first (`part` 0), then from `xmax` (1).
 */
export function searchChangesAfter(
  db: Db,
  mark: ChangesMark,
  part: 0 | 1,
  after: { xid: string; id: string },
  limit: number,
): Promise<(IndexedPlant & { changed: string })[]> {
  const keyset = { afterXid: after.xid, afterId: after.id, limit };
  return part === 0
    ? mark.running.length === 0
      ? Promise.resolve([])
      : changesOf(db, { xids: JSON.stringify(mark.running), ...keyset })
    : changesFrom(db, { from: mark.xmax, ...keyset });
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
