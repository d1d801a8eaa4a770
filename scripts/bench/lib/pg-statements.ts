import postgres from 'postgres';

/**
 * Server settings for a private PostgreSQL that counts statements: pg_stat_statements with planning tracked (its
 * `plans` column counts how many times each statement was planned). The rest as the machine's server is set for
 * CI (`autovacuum = off`, so a table is analyzed only when something asks), so figures compare with the shared one.
 */
export const PG_STATEMENTS_SETTINGS: Record<string, string> = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track_planning': 'on',
  'pg_stat_statements.max': '5000',
  autovacuum: 'off',
};

/** One statement's counters (summed over users), as pg_stat_statements keeps them. */
export interface StatementCounters {
  query: string;
  calls: number;
  plans: number;
  planMs: number;
  execMs: number;
  rows: number;
}

/** Counters of every statement run in one database, by query id. */
export type StatementSnapshot = Map<string, StatementCounters>;

/**
 * Reads pg_stat_statements for one database through a connection to the server's `postgres` database (so the
 * reader is not one of the database's backends, whose CPU time the benchmark measures).
 */
export class StatementCounter {
  private readonly admin: postgres.Sql;

  constructor(
    adminUrl: string,
    private readonly database: string,
  ) {
    this.admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'bench-stats' } });
  }

  /** Creates the extension (once per server; the view then shows every database's statements). */
  async enable(): Promise<void> {
    await this.admin`create extension if not exists pg_stat_statements`;
  }

  async snapshot(): Promise<StatementSnapshot> {
    const rows = await this.admin<
      { queryid: string; query: string; calls: string; plans: string; plan_ms: number; exec_ms: number; rows: string }[]
    >`select s.queryid::text as queryid, min(s.query) as query, sum(s.calls)::text as calls, sum(s.plans)::text as plans,
        sum(s.total_plan_time)::float8 as plan_ms, sum(s.total_exec_time)::float8 as exec_ms, sum(s.rows)::text as rows
      from pg_stat_statements s join pg_database d on d.oid = s.dbid
      where d.datname = ${this.database}
      group by s.queryid`;
    return new Map(
      rows.map((r) => [
        r.queryid,
        {
          query: r.query,
          calls: Number(r.calls),
          plans: Number(r.plans),
          planMs: r.plan_ms,
          execMs: r.exec_ms,
          rows: Number(r.rows),
        },
      ]),
    );
  }

  async close(): Promise<void> {
    await this.admin.end({ timeout: 5 });
  }
}

/** What each statement did between two snapshots; statements that did nothing are left out. */
export function statementDelta(before: StatementSnapshot, after: StatementSnapshot): StatementCounters[] {
  const out: StatementCounters[] = [];
  for (const [id, a] of after) {
    const b = before.get(id);
    const d: StatementCounters = {
      query: a.query,
      calls: a.calls - (b?.calls ?? 0),
      plans: a.plans - (b?.plans ?? 0),
      planMs: a.planMs - (b?.planMs ?? 0),
      execMs: a.execMs - (b?.execMs ?? 0),
      rows: a.rows - (b?.rows ?? 0),
    };
    if (d.calls > 0 || d.plans > 0) out.push(d);
  }
  return out.sort((x, y) => y.planMs + y.execMs - (x.planMs + x.execMs));
}

/** A statement's text on one line, cut to `max` characters, for a table cell. */
export function shortQuery(query: string, max = 90): string {
  const one = query.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
