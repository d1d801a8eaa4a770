import { type Db, executePrepared, executeRows } from '@rootline/db';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { EventRow, NewEventRow } from './events.repo.js';
import { correctedEvents, events, journeyLots, journeyTotals, ledgerIntents, pendingEvents } from './schema.js';

/** The journey part an event counts in: its plant, or for an event naming no plant, its seed lot. */
const subjectOf = (row: Pick<NewEventRow, 'plantId' | 'seedLotId'>) => row.plantId ?? row.seedLotId ?? '';

/** JSON of rows as one parameter (the statement's text does not depend on how many). */
const json = (rows: unknown) => sql`${JSON.stringify(rows)}::jsonb`;

/**
 * What storing a batch of events changes besides their rows, as statements of the recorder's one statement (its
 * WITH clauses all see the database as it was before it, so each works from the batch's own values):
 *
 * - `corrected_events`: each event a new event corrects, with its latest correction. `changeIndex` is the index of
 *   this clause among the recorder's changes: the totals clause reads which rows it inserted (`change_<i>`).
 * - `journey_totals`: + each new event; − each event corrected for the first time (its first row just inserted).
 * - `journey_lots`: the seed lots a plant's events name.
 * - `pending_events`: the reservations of these events are done with.
 */
export function journeyChanges(rows: readonly NewEventRow[], changeIndex: number): SQL[] {
  const changes: SQL[] = [];
  // The latest correction of each corrected event in the batch (one row per event: an upsert touches a row once).
  const corrections = new Map<string, NewEventRow>();
  for (const r of rows) {
    if (!r.corrects) continue;
    const seen = corrections.get(r.corrects);
    if (!seen || `${seen.recordedAt}${seen.id}` <= `${r.recordedAt}${r.id}`) corrections.set(r.corrects, r);
  }
  const added = rows.map((r) => ({
    subject: subjectOf(r),
    // A hidden leg shows no distance: it adds nothing to the totals others see.
    distance_km: r.distanceKm ?? 0,
    kg_co2e: r.kgCo2e ?? 0,
    event_at: r.eventAt,
  }));
  let takenOut = sql`select null::text as id where false`;
  if (corrections.size > 0) {
    const fixes = [...corrections].map(([id, by]) => ({ id, corrected_by: by.id, corrected_at: by.recordedAt }));
    changes.push(sql`insert into ${correctedEvents} as c (id, corrected_by, corrected_at)
      select id, corrected_by, corrected_at
      from jsonb_to_recordset(${json(fixes)}) as r(id text, corrected_by text, corrected_at timestamptz)
      on conflict (id) do update set
        corrected_by = case when excluded.corrected_at >= c.corrected_at then excluded.corrected_by else c.corrected_by end,
        corrected_at = greatest(c.corrected_at, excluded.corrected_at)
      returning id, (xmax = 0) as first`);
    // xmax is 0 on a row this statement inserted: the event's first correction, which takes it out of the totals.
    takenOut = sql`select id from ${sql.raw(`change_${changeIndex}`)} where first`;
  }
  changes.push(sql`insert into ${journeyTotals} as t (subject, recorded, in_force, distance_km, kg_co2e, latest_at)
    select subject, sum(recorded)::int, sum(in_force)::int, sum(distance_km), sum(kg_co2e), max(latest_at)
    from (
      select a.subject, 1 as recorded, 1 as in_force, a.distance_km, a.kg_co2e, a.event_at as latest_at
      from jsonb_to_recordset(${json(added)})
        as a(subject text, distance_km double precision, kg_co2e double precision, event_at timestamptz)
      union all
      select coalesce(x.plant_id, x.seed_lot_id), 0, -1, -coalesce(x.distance_km, 0), -coalesce(x.kg_co2e, 0), null
      from ${events} x where x.id in (${takenOut})
    ) d
    group by subject
    on conflict (subject) do update set
      recorded = t.recorded + excluded.recorded,
      in_force = t.in_force + excluded.in_force,
      distance_km = t.distance_km + excluded.distance_km,
      kg_co2e = t.kg_co2e + excluded.kg_co2e,
      latest_at = greatest(t.latest_at, excluded.latest_at)`);
  const lots = new Map<string, { plant_id: string; seed_lot_id: string; first_at: string }>();
  for (const r of rows) {
    if (!r.plantId || !r.seedLotId) continue;
    const key = `${r.plantId} ${r.seedLotId}`;
    const seen = lots.get(key);
    if (!seen || new Date(r.eventAt) < new Date(seen.first_at)) {
      lots.set(key, { plant_id: r.plantId, seed_lot_id: r.seedLotId, first_at: r.eventAt });
    }
  }
  if (lots.size > 0) {
    changes.push(sql`insert into ${journeyLots} as l (plant_id, seed_lot_id, first_at)
      select plant_id, seed_lot_id, first_at
      from jsonb_to_recordset(${json([...lots.values()])}) as r(plant_id text, seed_lot_id text, first_at timestamptz)
      on conflict (plant_id, seed_lot_id) do update set first_at = least(l.first_at, excluded.first_at)`);
  }
  const planted = rows.filter((r) => r.plantId).map((r) => r.id);
  if (planted.length > 0) {
    changes.push(
      sql`delete from ${pendingEvents} where id = any(array(select jsonb_array_elements_text(${json(planted)})))`,
    );
  }
  return changes;
}

/** A plant event on its way to the ledger, as the time-order rule counts it. */
export interface Reservation {
  id: string;
  plantId: string;
  txId: string;
  eventAt: string;
}

/**
 * Puts a plant's new event in order with the plant's other events, stored or on their way: under a lock on the
 * plant's totals row (`SELECT … FOR UPDATE`, so concurrent events of one plant, on any replica, take turns), finds
 * the latest instant of its events and of its reservations, and unless `check` is off and the event is earlier,
 * reserves the event's instant (a `pending_events` row, deleted when the event is stored). Answers the latest
 * instant when the event is refused, else undefined. A reservation older than `staleBefore` whose ledger intent is
 * gone (its write never started) no longer counts, and is deleted.
 */
export async function reserveEventTime(
  db: Db,
  r: Reservation,
  opts: { check: boolean; now: string; staleBefore: string },
): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    await tx.insert(journeyTotals).values({ subject: r.plantId }).onConflictDoNothing();
    const [locked] = await executeRows<{ latest_at: string | Date | null }>(
      tx,
      sql`select latest_at from ${journeyTotals} where subject = ${r.plantId} for update`,
    );
    await tx.execute(sql`delete from ${pendingEvents} p
      where p.plant_id = ${r.plantId} and p.created_at < ${opts.staleBefore}::timestamptz
        and not exists (select 1 from ${ledgerIntents} i where i.tx_id = p.tx_id)`);
    const [pending] = await executeRows<{ at: string | Date | null }>(
      tx,
      sql`select max(event_at) as at from ${pendingEvents} where plant_id = ${r.plantId} and id <> ${r.id}`,
    );
    const instants = [locked?.latest_at, pending?.at].flatMap((t) => (t ? [new Date(t).getTime()] : []));
    const latest = instants.length > 0 ? Math.max(...instants) : undefined;
    if (opts.check && latest !== undefined && new Date(r.eventAt).getTime() < latest) {
      return new Date(latest).toISOString();
    }
    await tx
      .insert(pendingEvents)
      .values({ ...r, createdAt: opts.now })
      .onConflictDoNothing();
    return undefined;
  });
}

/** Drops a reservation whose event will never be stored (the ledger refused it). */
export async function releaseEventTime(db: Db, id: string): Promise<void> {
  await db.execute(sql`delete from ${pendingEvents} where id = ${id}`);
}

/** A plant's journey totals and seed lots, from the running totals and the ends of the events index. */
export interface JourneySummary {
  seedLots: string[];
  /** Every event, corrected ones included (the page count). */
  recorded: number;
  inForce: number;
  distanceKm: number;
  kgCo2e: number;
  firstAt: number | null;
  lastAt: number | null;
}

/** The first or last instant of an event in force among `where` (an index scan that stops at the first hit). */
const endOf = (where: SQL, direction: 'asc' | 'desc') =>
  sql`select e.event_at from ${events} e where ${where}
    and not exists (select 1 from ${correctedEvents} c where c.id = e.id)
    order by e.event_at ${sql.raw(direction)} limit 1`;

/**
 * A plant's journey totals and seed lots in one statement: its totals row and its lots' rows, and the first and
 * last instants in force off the events index. Prepared (fixed text, values as parameters): planning it cost more
 * than running it.
 */
export async function journeySummaryOf(db: Db, plantId: string): Promise<JourneySummary> {
  const own = sql`e.plant_id = ${plantId}`;
  const lot = sql`e.seed_lot_id = j.seed_lot_id and e.plant_id is null`;
  const [row] = await executePrepared<{
    seed_lots: string[];
    recorded: number | string;
    in_force: number | string;
    distance_km: number | null;
    kg_co2e: number | null;
    first_at: string | Date | null;
    last_at: string | Date | null;
  }>(
    db,
    sql`with lots as (select seed_lot_id, first_at from ${journeyLots} where plant_id = ${plantId}),
      totals as (
        select coalesce(sum(t.recorded), 0) as recorded, coalesce(sum(t.in_force), 0) as in_force,
          sum(t.distance_km) as distance_km, sum(t.kg_co2e) as kg_co2e
        from (select ${plantId}::text as subject union all select seed_lot_id from lots) s
        join ${journeyTotals} t on t.subject = s.subject
      )
    select
      (select coalesce(jsonb_agg(seed_lot_id order by first_at, seed_lot_id), '[]'::jsonb) from lots) as seed_lots,
      totals.recorded, totals.in_force, totals.distance_km, totals.kg_co2e,
      least((${endOf(own, 'asc')}),
        (select min(f.event_at) from lots j cross join lateral (${endOf(lot, 'asc')}) f)) as first_at,
      greatest((${endOf(own, 'desc')}),
        (select max(f.event_at) from lots j cross join lateral (${endOf(lot, 'desc')}) f)) as last_at
    from totals`,
  );
  const time = (t: string | Date | null | undefined) => (t ? new Date(t).getTime() : null);
  return {
    seedLots: row?.seed_lots ?? [],
    recorded: Number(row?.recorded ?? 0),
    inForce: Number(row?.in_force ?? 0),
    distanceKm: row?.distance_km ?? 0,
    kgCo2e: row?.kg_co2e ?? 0,
    firstAt: time(row?.first_at),
    lastAt: time(row?.last_at),
  };
}

/** Every column of `events` under its drizzle key, so a raw row reads like a drizzle one. */
const eventColumns = sql.join(
  Object.entries(getTableColumns(events)).map(
    ([key, column]) => sql`e.${sql.identifier(column.name)} as ${sql.identifier(key)}`,
  ),
  sql`, `,
);

/** Where a journey page starts: after `offset` events, or (keyset) after the event at this position. */
export type PageStart = { offset: number } | { after: Pick<EventRow, 'eventAt' | 'recordedAt' | 'id'> };

/**
 * One page of a plant's journey in time order (instant, recording order, id), with each event's latest correction:
 * the plant's events and those of its seed lots naming no plant, each read off its index from the page's start
 * (after a cursor: a range scan from it, `limit` rows per part; by offset: `offset + limit` rows per part), merged,
 * and the page cut from that. Prepared, as the summary.
 */
export async function journeyPage(
  db: Db,
  plantId: string,
  start: PageStart,
  limit: number,
): Promise<(EventRow & { correctedBy: string | null })[]> {
  const offset = 'offset' in start ? start.offset : 0;
  const upTo = offset + limit;
  const order = sql`order by event_at, recorded_at, id`;
  // With a cursor, both parts start after it: a row comparison in the index's order, so a range scan (two texts,
  // each prepared once: with and without a cursor).
  const since = (t: string) => {
    if (!('after' in start)) return sql``;
    const { eventAt, recordedAt, id } = start.after;
    return sql`and (${sql.raw(t)}event_at, ${sql.raw(t)}recorded_at, ${sql.raw(t)}id) > (${eventAt}::timestamptz, ${recordedAt}::timestamptz, ${id}::text)`;
  };
  return executePrepared(
    db,
    sql`select ${eventColumns}, c.corrected_by as "correctedBy"
    from (
      (select * from ${events} where plant_id = ${plantId} ${since('')} ${order} limit ${upTo})
      union all
      (select l.* from ${journeyLots} j cross join lateral (
        select * from ${events} x where x.seed_lot_id = j.seed_lot_id and x.plant_id is null ${since('x.')}
        ${order} limit ${upTo}
      ) l where j.plant_id = ${plantId})
    ) e
    left join ${correctedEvents} c on c.id = e.id
    order by e.event_at, e.recorded_at, e.id
    offset ${offset} limit ${limit}`,
  );
}
