import type { PropagationType } from '@rootline/contracts';
import { type Db, executeRows } from '@rootline/db';
import { sql } from 'drizzle-orm';
import type { LineagePlant } from '../domain/lineage.js';

interface LineageRow {
  id: string;
  common_name: string;
  scientific_name: string | null;
  generation: number;
  propagation_type: string | null;
  parent_id: string | null;
  owner_id: string;
  owner_name: string;
  owner_name_stated_by: string | null;
  registered_by: string | null;
  registered_ms: number;
  latitude: number | null;
  longitude: number | null;
  country: string | null;
  seed_lot_id: string | null;
  depth: number;
}

const LINEAGE_COLUMNS = sql.raw(
  'p.id, p.common_name, p.scientific_name, p.generation, p.propagation_type, p.parent_id, p.owner_id, p.owner_name, ' +
    'p.owner_name_stated_by, p.registered_by, ' +
    '(extract(epoch from p.registered_at) * 1000)::float8 as registered_ms, p.latitude, p.longitude, p.country, ' +
    'p.seed_lot_id',
);

function toLineagePlant(r: LineageRow): LineagePlant {
  return {
    id: r.id,
    commonName: r.common_name,
    scientificName: r.scientific_name,
    generation: Number(r.generation),
    propagationType: r.propagation_type as PropagationType | null,
    parentId: r.parent_id,
    ownerId: r.owner_id,
    ownerName: r.owner_name,
    ownerNameStatedBy: r.owner_name_stated_by,
    registeredBy: r.registered_by,
    registeredAt: new Date(Number(r.registered_ms)).toISOString(),
    latitude: r.latitude,
    longitude: r.longitude,
    country: r.country,
    seedLotId: r.seed_lot_id,
    depth: Number(r.depth),
  };
}

/** One plant as a lineage node (depth 0), or undefined. */
export async function findLineagePlant(db: Db, id: string): Promise<LineagePlant | undefined> {
  const rows = await executeRows<LineageRow>(
    db,
    sql`select ${LINEAGE_COLUMNS}, 0 as depth from "plants"."plants" p where p.id = ${id}`,
  );
  return rows[0] ? toLineagePlant(rows[0]) : undefined;
}

/** Ancestors of a plant up to `maxDepth` levels (1 = parent), in any order. */
export async function findAncestors(db: Db, id: string, maxDepth: number): Promise<LineagePlant[]> {
  if (maxDepth < 1) return [];
  const rows = await executeRows<LineageRow>(
    db,
    sql`with recursive up(id, parent_id, depth) as (
          select a.id, a.parent_id, 1 from "plants"."plants" a
          where a.id = (select c.parent_id from "plants"."plants" c where c.id = ${id})
          union all
          select a.id, a.parent_id, up.depth + 1 from "plants"."plants" a join up on a.id = up.parent_id
          where up.depth < ${maxDepth}
        )
        select ${LINEAGE_COLUMNS}, up.depth from up join "plants"."plants" p on p.id = up.id`,
  );
  return rows.map(toLineagePlant);
}

/**
 * Descendants of a plant down to `maxDepth` levels (1 = children), at most `limit` of them. The recursive walk is
 * breadth first and stops as soon as `limit` rows are read, so a huge family costs no more than the limit.
 */
export async function findDescendants(db: Db, id: string, maxDepth: number, limit: number): Promise<LineagePlant[]> {
  if (maxDepth < 1 || limit < 1) return [];
  const rows = await executeRows<LineageRow>(
    db,
    sql`with recursive down(id, depth) as (
          select c.id, 1 from "plants"."plants" c where c.parent_id = ${id}
          union all
          select c.id, down.depth + 1 from "plants"."plants" c join down on c.parent_id = down.id
          where down.depth < ${maxDepth}
        )
        select ${LINEAGE_COLUMNS}, d.depth from (select id, depth from down limit ${limit}) d
        join "plants"."plants" p on p.id = d.id`,
  );
  return rows.map(toLineagePlant);
}
