import type { Location, NearbyPlant, Plant, PrivacyLevel, PropagationType } from '@rootline/contracts';
import { type Db, executeRows, fixedStatement, insertFromJson } from '@rootline/db';
import { EARTH_RADIUS_KM, RAD } from '@rootline/domain';
import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  isNotNull,
  max,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { LinkPlant } from '../domain/anomalies.js';
import type { LineagePlant } from '../domain/lineage.js';
import type { NearbyArea } from '../domain/nearby.js';
import { anonymousOwners, plants } from './schema.js';

export type PlantRow = typeof plants.$inferInsert;
type PlantRecord = typeof plants.$inferSelect;
/** The columns a plant's public shape is made of (`toPlant`): not the search texts, the geo band or the registrar. */
const PUBLIC_KEYS = [
  'id',
  'commonName',
  'scientificName',
  'scientificNameSource',
  'latitude',
  'longitude',
  'city',
  'country',
  'privacyLevel',
  'ownerId',
  'ownerName',
  'walletAddress',
  'generation',
  'parentId',
  'propagationType',
  'blockIndex',
  'blockHash',
  'txId',
  'registeredAt',
] as const satisfies readonly (keyof PlantRecord)[];
/** A row with the columns of a plant's public shape, under their drizzle keys. */
type PublicPlantRecord = Pick<PlantRecord, (typeof PUBLIC_KEYS)[number]>;

export type AnonymousOwnerRow = typeof anonymousOwners.$inferInsert;

/** The INSERT of new plants, as one statement with the rows as one JSON parameter (see `insertFromJson`). */
export function plantsInsert(rows: readonly PlantRow[]): SQL {
  return insertFromJson(plants, rows);
}

/** The INSERT of anonymous owners, as one statement with the rows as one JSON parameter. */
export function anonymousOwnersInsert(rows: readonly AnonymousOwnerRow[]): SQL {
  return insertFromJson(anonymousOwners, rows);
}

function toLocation(r: PublicPlantRecord): Location | null {
  if (r.latitude === null || r.longitude === null) return null;
  return {
    latitude: r.latitude,
    longitude: r.longitude,
    ...(r.city === null ? {} : { city: r.city }),
    ...(r.country === null ? {} : { country: r.country }),
  };
}

/** A stored row in the public shape of a plant. */
export function toPlant(r: PublicPlantRecord): Plant {
  return {
    id: r.id,
    commonName: r.commonName,
    scientificName: r.scientificName,
    ...(r.scientificNameSource ? { scientificNameSource: r.scientificNameSource } : {}),
    location: toLocation(r),
    privacyLevel: r.privacyLevel as PrivacyLevel,
    owner: { id: r.ownerId, name: r.ownerName },
    walletAddress: r.walletAddress,
    generation: r.generation,
    parentId: r.parentId,
    propagationType: r.propagationType as PropagationType | null,
    block: { index: r.blockIndex, hash: r.blockHash, txId: r.txId },
    registeredAt: new Date(r.registeredAt).toISOString(),
  };
}

/** The columns of a plant's public shape, aliased to their drizzle keys, for raw queries over `p`. */
const PUBLIC_COLUMNS = sql.raw(PUBLIC_KEYS.map((key) => `p."${plants[key].name}" as "${key}"`).join(', '));

/**
 * The read of a plant by id, on every `GET /api/plants/{id}`: raw SQL with the public columns only, run prepared
 * (ADR 126). postgres.js builds the row objects itself; through drizzle's builder each row was read as an array and
 * mapped again, the largest cost of the read in the plants service after the database's.
 */
const plantById = fixedStatement(
  'plants_plant_by_id',
  sql`select ${PUBLIC_COLUMNS} from "plants"."plants" p where p.id = ${sql.placeholder('id')}`,
);

/** The plant in its public shape, or undefined. */
export async function findPlant(db: Db, id: string): Promise<Plant | undefined> {
  const [r] = await plantById<PublicPlantRecord>(db, { id });
  return r ? toPlant(r) : undefined;
}

/** One page of an owner's plants, newest first (ties by id), and how many they hold; served by the owner index. */
export async function findOwnedPlants(
  db: Db,
  ownerId: string,
  offset: number,
  limit: number,
): Promise<{ items: Plant[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(plants)
      .where(eq(plants.ownerId, ownerId))
      .orderBy(desc(plants.registeredAt), desc(plants.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(plants).where(eq(plants.ownerId, ownerId)),
  ]);
  return { items: rows.map(toPlant), total: Number(counted[0]?.total ?? 0) };
}

/** What a propagation needs of its parent, or undefined. */
export async function findParent(
  db: Db,
  id: string,
): Promise<
  { id: string; commonName: string; scientificName: string | null; generation: number; blockHash: string } | undefined
> {
  const [r] = await db
    .select({
      id: plants.id,
      commonName: plants.commonName,
      scientificName: plants.scientificName,
      generation: plants.generation,
      blockHash: plants.blockHash,
    })
    .from(plants)
    .where(eq(plants.id, id))
    .limit(1);
  return r;
}

interface LineageRow {
  id: string;
  common_name: string;
  scientific_name: string | null;
  generation: number;
  propagation_type: string | null;
  parent_id: string | null;
  owner_id: string;
  owner_name: string;
  registered_ms: number;
  latitude: number | null;
  longitude: number | null;
  country: string | null;
  depth: number;
}

const LINEAGE_COLUMNS = sql.raw(
  'p.id, p.common_name, p.scientific_name, p.generation, p.propagation_type, p.parent_id, p.owner_id, p.owner_name, ' +
    '(extract(epoch from p.registered_at) * 1000)::float8 as registered_ms, p.latitude, p.longitude, p.country',
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
    registeredAt: new Date(Number(r.registered_ms)).toISOString(),
    latitude: r.latitude,
    longitude: r.longitude,
    country: r.country,
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

/** Every column of a plant row, aliased to its drizzle key, for raw queries that map rows with `toPlant`. */
export const PLANT_COLUMNS = sql.raw(
  Object.entries(getTableColumns(plants))
    .map(([key, column]) => `p."${(column as { name: string }).name}" as "${key}"`)
    .join(', '),
);

/** A whole number bound as a bigint parameter (an offset can be far past 2³¹). */
export function int8(v: number): SQL {
  if (!Number.isSafeInteger(Math.trunc(v))) throw new Error(`not a safe integer: ${v}`);
  return sql`${Math.trunc(v)}::bigint`;
}

/** How a nearby statement gets its values: as placeholders filled at each run, or bound in place (plan tests). */
type Bind = (name: string) => SQL;

/**
 * The haversine distance from the centre to a row's stored point, written term for term as `haversineKm` computes
 * it (the centre's terms, `lat1` and `lon1` in radians and `cosLat1`, computed in JavaScript and bound as float8),
 * so both agree on every result.
 */
function distanceSql(v: Bind): SQL {
  const k = (x: number) => sql.raw(`(${x})::float8`);
  const f = (name: string) => sql`${v(name)}::float8`;
  const sLat = sql`sin((latitude * ${k(RAD)} - ${f('lat1')}) / 2)`;
  const sLon = sql`sin((longitude * ${k(RAD)} - ${f('lon1')}) / 2)`;
  return sql`(${k(2 * EARTH_RADIUS_KM)} * asin(least(1::float8, sqrt(${sLat} * ${sLat} + ${f('cosLat1')} * cos(latitude * ${k(RAD)}) * ${sLon} * ${sLon}))))`;
}

/**
 * The rows of the geo index inside a box (`box` is the prefix of its values: its latitude bands as an array, each
 * band read as `ranges` longitude ranges, one or two, with the latitude checked inside the index), with their
 * distance from the centre.
 */
function candidatesSql(v: Bind, box: string, ranges: number): SQL {
  const f = (name: string) => sql`${v(`${box}_${name}`)}::float8`;
  const lon = sql.join(
    Array.from({ length: ranges }, (_, i) => sql`longitude between ${f(`west${i}`)} and ${f(`east${i}`)}`),
    sql` or `,
  );
  return sql`select id, ${distanceSql(v)} as distance_km from "plants"."plants"
    where geo_band = any(${v(`${box}_bands`)}::integer[]) and (${lon})
      and latitude between ${f('minLat')} and ${f('maxLat')}`;
}

/**
 * The nearby statement for boxes of `innerRanges` and `outerRanges` longitude ranges: plants within `radiusKm` of
 * the centre, nearest first (ties by id), one page of them, with `innerTotal`, the plants within the inner circle,
 * and `counted`, the plants within the radius counted up to `countCap` (a page past the end gives one row with the
 * counts and no plant). The candidates come from the geo index alone (index-only), the exact haversine decides,
 * and only the page's rows are read from the table, public columns only. When the inner circle holds at least
 * `need` (offset + limit) plants, they are the nearest of all (any other is farther), and the page is sorted from
 * them; only otherwise is the whole circle read (a one-time filter: PostgreSQL runs the branch that applies). The
 * count stops at `countCap` plants, and is not run at all when the inner circle alone holds that many (PostgreSQL
 * runs a sub-select of a CASE only when its branch is taken). Hidden plants have no band and are never read.
 */
function nearbySql(v: Bind, innerRanges: number, outerRanges: number): SQL {
  const n = (name: string) => sql`${v(name)}::bigint`;
  const within = (name: string) => sql`distance_km <= ${v(name)}::float8`;
  const window = sql`order by distance_km, id limit ${n('limit')} offset ${n('offset')}`;
  return sql`with inner_circle as materialized (
      select id, distance_km from (${candidatesSql(v, 'inner', innerRanges)}) c where ${within('innerKm')}
    ), inner_count as (
      select count(*)::int as inner_total, count(*) >= ${n('need')} as enough from inner_circle
    ), page as (
      (select id, distance_km from inner_circle where (select enough from inner_count) ${window})
      union all
      (select id, distance_km from (${candidatesSql(v, 'outer', outerRanges)}) c
        where ${within('radiusKm')} and not (select enough from inner_count) ${window})
    ), counted as (
      select case when inner_total >= ${n('countCap')} then inner_total else (
        select count(*)::int from (
          select 1 from (${candidatesSql(v, 'outer', outerRanges)}) c where ${within('radiusKm')} limit ${n('countCap')}
        ) x
      ) end as counted
      from inner_count
    )
    select counted.counted, inner_count.inner_total as "innerTotal", page.distance_km as "distanceKm",
      ${PUBLIC_COLUMNS}
    from counted cross join inner_count
    left join page on true
    left join "plants"."plants" p on p.id = page.id
    order by page.distance_km, page.id`;
}

/** The values of a nearby statement (see `nearbySql`), every number checked finite. */
function nearbyValues(area: NearbyArea, offset: number, limit: number, countCap: number): Record<string, unknown> {
  const lat1 = area.center.latitude * RAD;
  const values: Record<string, number | string> = {
    lat1,
    lon1: area.center.longitude * RAD,
    cosLat1: Math.cos(lat1),
    innerKm: area.innerKm,
    radiusKm: area.radiusKm,
  };
  for (const [name, box] of [
    ['inner', area.innerBox],
    ['outer', area.box],
  ] as const) {
    values[`${name}_minLat`] = box.minLat;
    values[`${name}_maxLat`] = box.maxLat;
    box.lonRanges.forEach(([west, east], i) => {
      values[`${name}_west${i}`] = west;
      values[`${name}_east${i}`] = east;
    });
    values[`${name}_bands`] = `{${box.bands.map((b) => Math.trunc(b)).join(',')}}`;
  }
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`${name}: not a finite number: ${value}`);
  }
  for (const [name, value] of Object.entries({ offset, limit, need: offset + limit, countCap })) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name}: not a whole number: ${value}`);
    values[name] = value;
  }
  return values;
}

/**
 * The nearby statements, one per shape (each box has one or two longitude ranges), built once with placeholders and
 * run prepared: a request costs neither drizzle's query building nor PostgreSQL's parse, and PostgreSQL can reuse
 * the plan.
 */
const nearbyStatements = new Map(
  [1, 2].flatMap((inner) =>
    [1, 2].map((outer) => [
      `${inner}${outer}`,
      fixedStatement(
        `plants_nearby_${inner}_${outer}`,
        nearbySql((name) => sql`${sql.placeholder(name)}`, inner, outer),
      ),
    ]),
  ),
);

/** The nearby statement of an area with its values bound in place, for plan tests. */
export function nearbyQuery(area: NearbyArea, offset: number, limit: number, countCap: number): SQL {
  const values = nearbyValues(area, offset, limit, countCap);
  return nearbySql((name) => sql`${values[name]}`, area.innerBox.lonRanges.length, area.box.lonRanges.length);
}

/**
 * One page of the plants within `area.radiusKm` of its centre (see `nearbySql`), how many of them were counted (up
 * to `countCap`) and how many are within the inner circle.
 */
export async function findNearby(
  db: Db,
  area: NearbyArea,
  offset: number,
  limit: number,
  countCap: number,
): Promise<{ items: NearbyPlant[]; counted: number; inner: number }> {
  const statement = nearbyStatements.get(`${area.innerBox.lonRanges.length}${area.box.lonRanges.length}`);
  if (!statement) throw new Error('a box has one or two longitude ranges');
  const rows = await statement<PublicPlantRecord & { counted: number; innerTotal: number; distanceKm: number | null }>(
    db,
    nearbyValues(area, offset, limit, countCap),
  );
  return {
    items: rows.flatMap((r) => (r.id === null ? [] : [{ ...toPlant(r), distanceKm: Number(r.distanceKm) }])),
    counted: Number(rows[0]?.counted ?? 0),
    inner: Number(rows[0]?.innerTotal ?? 0),
  };
}

/** Plant counts of the network statistics; `activeSince` bounds what counts as an active grower. */
export async function networkCounts(
  db: Db,
  activeSince: Date,
): Promise<{ totalPlants: number; activeGrowers: number; countriesRepresented: number }> {
  const [totals, active] = await Promise.all([
    db
      .select({
        totalPlants: count(),
        countries: countDistinct(sql`upper(trim(${plants.country}))`),
      })
      .from(plants),
    db
      .select({ growers: countDistinct(plants.ownerId) })
      .from(plants)
      .where(gte(plants.registeredAt, activeSince.toISOString())),
  ]);
  return {
    totalPlants: Number(totals[0]?.totalPlants ?? 0),
    activeGrowers: Number(active[0]?.growers ?? 0),
    countriesRepresented: Number(totals[0]?.countries ?? 0),
  };
}

/** Lineage-wide counts: plants, roots, the deepest generation, and plants per propagation type. */
export async function lineageCounts(db: Db): Promise<{
  totalPlants: number;
  rootPlants: number;
  maxGeneration: number;
  byPropagation: { propagationType: string | null; n: number }[];
}> {
  const [totals, byPropagation] = await Promise.all([
    db
      .select({
        totalPlants: count(),
        rootPlants: sql<number>`count(*) filter (where ${plants.parentId} is null)`,
        maxGeneration: max(plants.generation),
      })
      .from(plants),
    db
      .select({ propagationType: plants.propagationType, n: count() })
      .from(plants)
      .where(isNotNull(plants.propagationType))
      .groupBy(plants.propagationType),
  ]);
  return {
    totalPlants: Number(totals[0]?.totalPlants ?? 0),
    rootPlants: Number(totals[0]?.rootPlants ?? 0),
    maxGeneration: Number(totals[0]?.maxGeneration ?? 0),
    byPropagation: byPropagation.map((r) => ({ propagationType: r.propagationType, n: Number(r.n) })),
  };
}

const parent = alias(plants, 'parent');

function toLink(r: LinkPlant): LinkPlant {
  // Timestamps come back in the database's text form; the rules compare ISO strings' instants.
  return { ...r, registeredAt: new Date(r.registeredAt).toISOString() };
}

const childLink = {
  id: plants.id,
  parentId: plants.parentId,
  generation: plants.generation,
  registeredAt: plants.registeredAt,
  latitude: plants.latitude,
  longitude: plants.longitude,
};
const parentLink = {
  id: parent.id,
  parentId: parent.parentId,
  generation: parent.generation,
  registeredAt: parent.registeredAt,
  latitude: parent.latitude,
  longitude: parent.longitude,
};

/**
 * The next `limit` plants after `afterId` (by id) that have a parent or claim a generation above 0, each with its
 * parent (undefined when the parent id names no plant): the input of the anomaly rules, read in keyset pages.
 */
export async function linkBatch(
  db: Db,
  afterId: string,
  limit: number,
): Promise<{ plant: LinkPlant; parent: LinkPlant | undefined }[]> {
  const rows = await db
    .select({ plant: childLink, parent: parentLink })
    .from(plants)
    .leftJoin(parent, eq(parent.id, plants.parentId))
    .where(and(gt(plants.id, afterId), or(isNotNull(plants.parentId), ne(plants.generation, 0))))
    .orderBy(asc(plants.id))
    .limit(limit);
  return rows.map((r) => ({ plant: toLink(r.plant), parent: r.parent ? toLink(r.parent) : undefined }));
}
