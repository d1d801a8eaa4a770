import { SEARCH_EXACT_TOTAL_MAX, type SearchHit, type SearchType } from '@rootline/contracts';
import { type Db, executePrepared, executeRows } from '@rootline/db';
import { type SQL, sql } from 'drizzle-orm';
import { matchKind, prefixEnd, reachableRanks, relevancePatterns } from '../domain/search.js';
import { int8, PLANT_COLUMNS, toPlant } from './plants.repo.js';
import { plants } from './schema.js';

type PlantRecord = typeof plants.$inferSelect;

/** Each search field's column of plants. */
const COLUMNS: Record<SearchType, string> = {
  species: plants.searchSpecies.name,
  location: plants.searchLocation.name,
  owner: plants.searchOwner.name,
};

/**
 * A field's column and the id in byte order (`COLLATE "C"`), as its prefix index (`plants_search_*_prefix_idx`)
 * holds them: an equality on the text is a range of that index, its plants in id order. An index serves only
 * conditions and orders in its own collation, hence the spelling; and as the primary key cannot give ids in this
 * order, the planner never walks it for a text's plants, a walk that is long for a rare text.
 */
const bytesOf = (t: SearchType) => sql`p.${sql.identifier(COLUMNS[t])} collate "C"`;
const ID_BYTES = sql`p.id collate "C"`;

/** A text's relevance rank for `q`: exact 0, prefix 1, word 2, substring 3, no match 4. */
function rankOf(text: SQL, q: string): SQL {
  const p = relevancePatterns(q);
  return sql`case when ${text} = ${p.exact} then 0 when ${text} like ${p.prefix} then 1
    when ${text} like ${p.word} then 2 when ${text} like ${p.substring} then 3 else 4 end`;
}

/**
 * The distinct texts of `types` that match `q`, with their rank: from the trigram index of `search_texts` (`LIKE
 * '%q%'`); for a short `q`, from its prefix index (the range of the texts that start with `q`) and its index of words
 * (a word that starts with `q`, `'q':*`). Thousands of plants share a species, a place or an owner, so these texts are
 * few, and each is ranked once.
 */
function matchingTexts(q: string, types: readonly SearchType[]): SQL {
  const short = reachableRanks(q).length < 4;
  const match = short
    ? sql`((value collate "C" >= ${q} and value collate "C" < ${prefixEnd(q)})
        or to_tsvector('simple', value) @@ to_tsquery('simple', ${`${q}:*`}))`
    : sql`value like ${relevancePatterns(q).substring}`;
  const fields = sql.join(
    types.map((t) => sql.raw(`'${t}'`)),
    sql`, `,
  );
  // The word query is a superset (its words are split as PostgreSQL's parser splits them): the rank keeps the rules.
  return sql`texts as materialized (
      select * from (
        select field, value, ${rankOf(sql`value`, q)} as rank
        from "plants"."search_texts" where field in (${fields}) and ${match}
      ) m where rank <= ${sql.raw(String(Math.max(...reachableRanks(q))))}
    )`;
}

/** The ids of the plants with one of the field's matching texts, from its prefix index alone (index-only). */
function idsOf(type: SearchType): SQL {
  return sql`select x.id from (select value from texts where field = ${sql.raw(`'${type}'`)}) t
    cross join lateral (select p.id from "plants"."plants" p where ${bytesOf(type)} = t.value) x`;
}

/**
 * One page of the ranking: a UNION ALL of one branch per (rank, field), in the order of the ranking. A branch takes
 * the field's texts of that rank in byte order and, for each, its plants by id from the field's prefix index (a
 * nested loop, so in the ranking's order), and stops after `offset + limit` rows. PostgreSQL runs an Append's
 * branches in turn and stops at the LIMIT, so a page reads only the branches it needs, and of each only the rows in
 * front of the page. A plant counts at its best rank and, among equal ranks, its first field: the other fields'
 * ranks are a filter, checked only on the rows read, and the rows it drops are those of earlier branches, fewer
 * than the page needs (or the page would have stopped there).
 */
function pageOf(q: string, types: readonly SearchType[], offset: number, limit: number): SQL {
  const branches: SQL[] = [];
  for (const rank of reachableRanks(q)) {
    types.forEach((type, order) => {
      const others = types.flatMap((other, i) =>
        i === order
          ? []
          : [
              sql`${rankOf(sql`p.${sql.identifier(COLUMNS[other])}`, q)} ${sql.raw(i < order ? '>' : '>=')} ${sql.raw(String(rank))}`,
            ],
      );
      branches.push(sql`(select x.id, ${sql.raw(String(rank))} as rank, ${sql.raw(String(order))} as field_order,
          t.value collate "C" as text
        from (select value from texts where field = ${sql.raw(`'${type}'`)} and rank = ${sql.raw(String(rank))}
          order by value collate "C") t
        cross join lateral (
          select p.id from "plants"."plants" p
          where ${bytesOf(type)} = t.value ${others.length ? sql`and ${sql.join(others, sql` and `)}` : sql``}
          order by ${ID_BYTES} limit ${int8(offset + limit)}
        ) x
        limit ${int8(offset + limit)})`);
    });
  }
  return sql`select * from (${sql.join(branches, sql` union all `)}) b limit ${int8(limit)} offset ${int8(offset)}`;
}

/**
 * How many plants match: per field, its matching plants counted up to one past `SEARCH_EXACT_TOTAL_MAX`
 * (`largest`, the most of any field); when no field reaches that, `total`, the distinct plants of all fields (at
 * most three times the cap, read from the indexes alone). PostgreSQL runs a sub-select of a CASE only when needed;
 * `offset 0` keeps `largest` one computed column, where a flattened sub-select would count each field twice.
 */
function countsOf(types: readonly SearchType[]): SQL {
  const cap = int8(SEARCH_EXACT_TOTAL_MAX + 1);
  const capped = types.map((t) => sql`(select count(*) from (${idsOf(t)} limit ${cap}) c)`);
  const all = sql.join(types.map(idsOf), sql` union `);
  return sql`select l.largest::int as largest,
      case when l.largest < ${cap} then (select count(*) from (${all}) u) end::int as total
    from (select greatest(${sql.join(capped, sql`, `)}) as largest offset 0) l`;
}

/**
 * The search as one statement: the matching texts (once), one page of the ranking, and the counts. A page past the
 * end gives one row with the counts and no plant.
 */
function searchQuery(q: string, types: readonly SearchType[], offset: number, limit: number): SQL {
  return sql`with ${matchingTexts(q, types)},
      page as (${pageOf(q, types, offset, limit)}),
      counts as (${countsOf(types)})
    select counts.largest, counts.total, page.rank as "searchRank", page.field_order as "searchFieldOrder",
      ${PLANT_COLUMNS}
    from counts left join page on true left join "plants"."plants" p on p.id = page.id
    order by page.rank, page.field_order, page.text, page.id collate "C"`;
}

/** PostgreSQL's estimate of the matching plants, from its column statistics (the plan's rows), without reading them. */
async function estimatedCount(db: Db, q: string, types: readonly SearchType[]): Promise<number> {
  const { prefix, word, substring } = relevancePatterns(q);
  const match = sql.join(
    types.map((t) => {
      const column = sql`p.${sql.identifier(COLUMNS[t])}`;
      return reachableRanks(q).length < 4
        ? sql`${column} like ${prefix} or ${column} like ${word}`
        : sql`${column} like ${substring}`;
    }),
    sql` or `,
  );
  const [row] = await executeRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    db,
    sql`explain (format json) select 1 from "plants"."plants" p where ${match}`,
  );
  return Math.round(row?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
}

/**
 * One page of the plants matching `q` (normalised) in `types`, most relevant first, and how many match: exactly up
 * to `SEARCH_EXACT_TOTAL_MAX`, beyond it PostgreSQL's estimate (never below the cap + 1), with `totalIsEstimate`.
 * The search runs prepared, every value bound, with its generic plan: its text varies only with the fields and
 * whether `q` is short, and its plan does not depend on `q` (the texts come from the trigram index or a range and
 * the word index, their plants from the prefix indexes), so PostgreSQL plans each of these few texts once per
 * connection, not once a request.
 */
export async function searchPlants(
  db: Db,
  q: string,
  types: readonly SearchType[],
  offset: number,
  limit: number,
): Promise<{ items: Omit<SearchHit, 'coverPhoto'>[]; total: number; totalIsEstimate: boolean }> {
  if (types.length === 0) throw new Error('search needs at least one field');
  type Row = PlantRecord & {
    largest: number;
    total: number | null;
    searchRank: number | null;
    searchFieldOrder: number;
  };
  // The generic plan, always: PostgreSQL would otherwise keep planning each run afresh (a custom plan looks cheaper
  // to it, knowing the pattern), and planning this statement costs several times what running it does.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    return executePrepared<Row>(tx, searchQuery(q, types, offset, limit));
  });
  const totalIsEstimate = Number(rows[0]?.largest ?? 0) > SEARCH_EXACT_TOTAL_MAX;
  const total = totalIsEstimate
    ? Math.max(SEARCH_EXACT_TOTAL_MAX + 1, await estimatedCount(db, q, types))
    : Number(rows[0]?.total ?? 0);
  const items = rows.flatMap((r) =>
    r.id === null
      ? []
      : [
          {
            ...toPlant(r),
            match: { field: types[Number(r.searchFieldOrder)]!, kind: matchKind(Number(r.searchRank)) },
          },
        ],
  );
  return { items, total, totalIsEstimate };
}

/** The statement of a search, for plan tests. */
export const searchStatement = searchQuery;
