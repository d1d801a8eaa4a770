import type { NearbyPlant } from '@rootline/contracts';
import { type Db, type FixedStatement, fixedStatement } from '@rootline/db';
import { EARTH_RADIUS_KM, RAD } from '@rootline/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { NearbyArea } from '../domain/nearby.js';
import { PUBLIC_COLUMNS, type PublicPlantRecord, toPlant } from './plants.repo.js';

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

/** The nearby statement of an area's shape (one or two longitude ranges in each box). */
function nearbyStatementOf(area: NearbyArea): FixedStatement {
  const statement = nearbyStatements.get(`${area.innerBox.lonRanges.length}${area.box.lonRanges.length}`);
  if (!statement) throw new Error('a box has one or two longitude ranges');
  return statement;
}

/**
 * The nearby statement of an area as PostgreSQL text with its values in order: the very statement the service runs,
 * for a client without drizzle. The nearby benchmark's bare pipeline runs it, so that the floor it measures does the
 * service's database work and nothing else.
 */
export function nearbyStatementText(
  area: NearbyArea,
  offset: number,
  limit: number,
  countCap: number,
): { text: string; values: unknown[] } {
  return nearbyStatementOf(area).text(nearbyValues(area, offset, limit, countCap));
}

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
): Promise<{ items: Omit<NearbyPlant, 'coverPhoto'>[]; counted: number; inner: number }> {
  const rows = await nearbyStatementOf(area)<
    PublicPlantRecord & { counted: number; innerTotal: number; distanceKm: number | null }
  >(db, nearbyValues(area, offset, limit, countCap));
  return {
    items: rows.flatMap((r) => (r.id === null ? [] : [{ ...toPlant(r), distanceKm: Number(r.distanceKm) }])),
    counted: Number(rows[0]?.counted ?? 0),
    inner: Number(rows[0]?.innerTotal ?? 0),
  };
}
