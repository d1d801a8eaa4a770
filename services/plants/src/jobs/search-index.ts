import type { Db } from '@rootline/db';
import type { Logger } from '@rootline/host';
import { type ChangesMark, changesMark, indexedPlantsAfter, searchChangesAfter } from '../db/search-index.repo.js';
import { createSearchIndex, nothingEnded, type SearchIndex } from '../domain/search-index.js';

/** Plants read per statement when the index is built, and changes per statement when it catches up. */
const LOAD_BATCH = 50_000;
const CHANGES_BATCH = 10_000;

export interface SearchIndexFeed {
  /** The index; answer from it only when `ready`. */
  index: SearchIndex;
  /** True once every plant stored when it started was read. */
  readonly ready: boolean;
  /** Reads the changes committed before the call (and any since the last look); concurrent calls share a reading. */
  catchUp(): Promise<void>;
  /** Builds the index (resolves when it is built, or failed: searches are then answered by PostgreSQL). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps this replica's in-memory search index (docs/adr/316) equal to the plants table: on start it reads every
 * plant's search texts (a few seconds for a million, searches meanwhile answered by PostgreSQL), then every
 * `pollMs` the plants whose texts were written since (`search_changed`, set on insert and by a trigger on update).
 * The changes come from the database, not from the writer, so each replica sees every write, whichever replica,
 * import or job made it, with no event to lose. A look reads the changes of the transactions that had not committed
 * at the previous look (those running then, and every later one), so a transaction that commits late is read when
 * it is visible, and a change is read once or twice, never missed.
 */
export function createSearchIndexFeed(o: { db: Db; log: Logger; pollMs: number }): SearchIndexFeed {
  const index = createSearchIndex();
  let ready = false;
  let stopped = false;
  let mark: ChangesMark = { xmax: '0', running: [] };
  let reading: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let started: Promise<void> = Promise.resolve();

  async function load(): Promise<void> {
    const began = performance.now();
    const heap = process.memoryUsage().heapUsed;
    mark = await changesMark(o.db);
    let after = '';
    for (;;) {
      if (stopped) return;
      const rows = await indexedPlantsAfter(o.db, after, LOAD_BATCH);
      index.apply(rows);
      if (rows.length < LOAD_BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    await read();
    ready = true;
    o.log.info(
      {
        plants: index.size,
        ms: Math.round(performance.now() - began),
        heapMb: Math.round((process.memoryUsage().heapUsed - heap) / 1e6),
      },
      'search index built',
    );
  }

  async function read(): Promise<void> {
    // Taken first: whatever the reads below do not see is written by a transaction the next mark names.
    const next = await changesMark(o.db);
    // No transaction ended since the last mark (none left its running set, none raised its bound): nothing newly
    // committed to read, so an idle database costs one statement a look.
    if (nothingEnded(mark, next)) return;
    for (const part of [0, 1] as const) {
      let after = { xid: '0', id: '' };
      for (;;) {
        const rows = await searchChangesAfter(o.db, mark, part, after, CHANGES_BATCH);
        index.apply(rows);
        if (rows.length < CHANGES_BATCH) break;
        const last = rows[rows.length - 1]!;
        after = { xid: last.changed, id: last.id };
      }
    }
    mark = next;
  }

  let queued: Promise<void> | undefined;
  /** A reading that starts after this call (a change committed before it is read): the one running, or the next. */
  function catchUp(): Promise<void> {
    if (!reading) {
      reading = read().finally(() => {
        reading = undefined;
      });
      return reading;
    }
    // The reading under way may have taken its mark before the caller's change: wait for the next one, shared by
    // every caller meanwhile.
    queued ??= reading
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return catchUp();
      });
    return queued;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      catchUp()
        .catch((err) => o.log.warn({ err }, 'search index: reading the changes failed; trying again'))
        .finally(schedule);
    }, o.pollMs);
    timer.unref?.();
  }

  return {
    index,
    get ready() {
      return ready;
    },
    catchUp,
    start() {
      started = load()
        .then(schedule)
        .catch((err) => {
          o.log.error({ err }, 'search index: building failed; searches are answered by PostgreSQL');
        });
      return started;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await started;
      await reading?.catch(() => undefined);
    },
  };
}

/**
 * The recorder with every recorded write followed by a reading of the changes, so this process's index holds the
 * plants a request of it wrote (registrations, clones, imports, transfers) before it answers: a search after a
 * write finds it at once when the same process answers (other processes read it within their next look).
 */
export function recorderReadingChanges<
  T extends { record: (...a: never[]) => Promise<unknown>; recordIntended: (...a: never[]) => Promise<unknown> },
>(recorder: T, feed: SearchIndexFeed, log: Logger): T {
  const after = async <V>(written: Promise<V>): Promise<V> => {
    const result = await written;
    if (feed.ready) await feed.catchUp().catch((err) => log.warn({ err }, 'search index: reading the changes failed'));
    return result;
  };
  return {
    ...recorder,
    record: (...a: Parameters<T['record']>) => after(recorder.record(...a)),
    recordIntended: (...a: Parameters<T['recordIntended']>) => after(recorder.recordIntended(...a)),
  };
}
