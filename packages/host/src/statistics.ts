import { analyzeGrownTables, type Database } from '@rootline/db';
import type { Logger } from './logger.js';
import { createPeriodic, type Periodic } from './periodic.js';

/**
 * How often a process looks for its tables that grew since their last ANALYZE (ADR 125): about how long a generic
 * plan made while a table was small can outlive the table's growth.
 */
export const STATISTICS_EVERY_MS = 5000;

/**
 * Background work that keeps the planner's statistics of one schema in step with its growth (`analyzeGrownTables`
 * every `STATISTICS_EVERY_MS`). Prepared statements keep a generic plan (ADR 125); the refreshed statistics make
 * PostgreSQL plan them again with the tables' size now. Call `start()`, and `stop()` before closing the database.
 */
export function statisticsKeeper(database: Database, schema: string, log: Logger): Periodic {
  return createPeriodic({
    everyMs: STATISTICS_EVERY_MS,
    log,
    what: 'statistics refresh',
    run: async () => {
      const analyzed = await analyzeGrownTables(database, schema);
      if (analyzed.length > 0) log.debug({ schema, tables: analyzed }, 'statistics refreshed');
    },
  });
}
