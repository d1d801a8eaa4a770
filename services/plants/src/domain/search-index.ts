import { SEARCH_EXACT_TOTAL_MAX, SEARCH_TYPES, type SearchType } from '@rootline/contracts/plants';
import { reachableRanks } from './search.js';

/** A plant's three normalised search texts, as stored beside it (`search_species`, `search_location`, `search_owner`). */
export interface IndexedPlant {
  id: string;
  species: string;
  location: string;
  owner: string;
}

/** One hit of a page: the plant, its best relevance rank (0 exact … 3 substring) and the field (index into `types`). */
export interface IndexHit {
  id: string;
  rank: number;
  field: number;
}

/** A page of the ranking and how many plants match (exact up to the cap, an estimate past it). */
export interface IndexPage {
  hits: IndexHit[];
  total: number;
  totalIsEstimate: boolean;
}

const NO_MATCH = 4;

/**
 * A text's relevance rank for a normalised `q` (docs/plants.md): exact 0, prefix 1, word 2 (a later word starts with
 * `q`), substring 3, no match 4; a `q` under three characters never matches inside a word. The rules of the SQL
 * search's LIKE patterns, written for one text.
 */
export function textRank(text: string, q: string, short = reachableRanks(q).length < 4): number {
  if (text === '') return NO_MATCH;
  if (text === q) return 0;
  if (text.startsWith(q)) return 1;
  if (text.includes(` ${q}`)) return 2;
  return !short && text.includes(q) ? 3 : NO_MATCH;
}

/**
 * Byte order of the UTF-8 encodings (PostgreSQL's `COLLATE "C"`), without encoding: UTF-16 code units compare in
 * code point order except that surrogates (U+10000 and above) sort below U+E000–U+FFFF; moving those up fixes it.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** A field's distinct texts and, for each, its plants in id byte order. */
interface FieldIndex {
  /** Text id → text. */
  texts: string[];
  ids: Map<string, number>;
  /** Text id → plant numbers, in their ids' byte order. */
  postings: number[][];
  /** Text ids in their texts' byte order. */
  sorted: number[];
  /** Plant number → text id (-1: the empty text, found by nothing). */
  textOf: Int32Array;
}

const emptyField = (): FieldIndex => ({
  texts: [],
  ids: new Map(),
  postings: [],
  sorted: [],
  textOf: new Int32Array(0),
});

/** The least index `i` in `xs` (sorted by `before`) where `before(x, xs[i])` is false for none before it. */
function insertionPoint<T>(xs: readonly T[], before: (a: T) => boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(xs[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The search of docs/plants.md over the plants held in memory: the distinct texts of each field, each with its
 * plants in id order (postings). A query ranks the few distinct texts, then walks the postings of each (rank, field)
 * in the ranking's order and stops when the page is full: the SQL search's plan (ADR 158) without a database.
 * `apply` takes new plants and changed texts in any number; a plant is never removed (plants are not deleted), and
 * a plant whose texts are all empty is found by nothing.
 */
export function createSearchIndex(opts: { exactTotalMax?: number } = {}) {
  const cap = opts.exactTotalMax ?? SEARCH_EXACT_TOTAL_MAX;
  const plantIds: string[] = [];
  const numbers = new Map<string, number>();
  const fields: Record<SearchType, FieldIndex> = { species: emptyField(), location: emptyField(), owner: emptyField() };

  function textId(f: FieldIndex, text: string): number {
    if (text === '') return -1;
    let id = f.ids.get(text);
    if (id === undefined) {
      id = f.texts.length;
      f.texts.push(text);
      f.ids.set(text, id);
      f.postings.push([]);
      f.sorted.splice(
        insertionPoint(f.sorted, (t) => compareBytes(f.texts[t]!, text) < 0),
        0,
        id,
      );
    }
    return id;
  }

  function grow(size: number) {
    for (const type of SEARCH_TYPES) {
      const f = fields[type];
      if (f.textOf.length >= size) continue;
      const next = new Int32Array(Math.max(size, f.textOf.length * 2, 1024)).fill(-1);
      next.set(f.textOf);
      f.textOf = next;
    }
  }

  /**
   * Adds new plants and moves changed ones to their new texts. A batch's new plants in id order after every plant
   * held (the common case: ids grow with time) are appended; any other change is placed by binary search, or, for
   * a large batch, the postings it touched are sorted again once.
   */
  function apply(rows: readonly IndexedPlant[]): void {
    grow(plantIds.length + rows.length);
    const touched = new Set<number[]>();
    const bulk = rows.length > 1000;
    const orderOf = (n: number) => plantIds[n]!;
    const place = (posting: number[], n: number) => {
      const id = orderOf(n);
      const last = posting[posting.length - 1];
      if (last === undefined || compareBytes(orderOf(last), id) < 0) posting.push(n);
      else if (bulk) {
        posting.push(n);
        touched.add(posting);
      } else
        posting.splice(
          insertionPoint(posting, (m) => compareBytes(orderOf(m), id) < 0),
          0,
          n,
        );
    };
    for (const row of rows) {
      let n = numbers.get(row.id);
      const known = n !== undefined;
      if (n === undefined) {
        n = plantIds.length;
        plantIds.push(row.id);
        numbers.set(row.id, n);
        grow(plantIds.length);
      }
      for (const type of SEARCH_TYPES) {
        const f = fields[type];
        const next = textId(f, row[type]);
        const before = known ? f.textOf[n]! : -1;
        if (known && before === next) continue;
        if (before >= 0) {
          const posting = f.postings[before]!;
          const at = posting.indexOf(n);
          if (at >= 0) posting.splice(at, 1);
        }
        f.textOf[n] = next;
        if (next >= 0) place(f.postings[next]!, n);
      }
    }
    for (const posting of touched) posting.sort((a, b) => compareBytes(orderOf(a), orderOf(b)));
  }

  /**
   * One page of the plants matching `q` (normalised) in `types`, best first, and how many match: exactly when no
   * field has more than the cap (the distinct plants of all fields), else an estimate above the cap from the
   * fields' counts, as if they were independent.
   */
  function search(q: string, types: readonly SearchType[], offset: number, limit: number): IndexPage {
    const short = reachableRanks(q).length < 4;
    const ranks = types.map((type) => {
      const f = fields[type];
      const r = new Int8Array(f.texts.length);
      for (let t = 0; t < f.texts.length; t++) r[t] = textRank(f.texts[t]!, q, short);
      return r;
    });
    const rankIn = (i: number, n: number) => {
      const t = fields[types[i]!]!.textOf[n]!;
      return t < 0 ? NO_MATCH : ranks[i]![t]!;
    };
    // Counts: per field, the plants of its matching texts (each plant has one text a field).
    const perField = types.map((type, i) => {
      const f = fields[type];
      let c = 0;
      for (let t = 0; t < f.texts.length; t++) if (ranks[i]![t]! < NO_MATCH) c += f.postings[t]!.length;
      return c;
    });
    const largest = Math.max(0, ...perField);
    let total: number;
    const totalIsEstimate = largest > cap;
    if (totalIsEstimate) {
      const n = Math.max(1, plantIds.length);
      const none = perField.reduce((p, c) => p * (1 - c / n), 1);
      total = Math.max(cap + 1, largest, Math.round(n * (1 - none)));
    } else {
      // Exact: each plant counted at its first matching field.
      total = 0;
      types.forEach((type, i) => {
        const f = fields[type];
        for (let t = 0; t < f.texts.length; t++) {
          if (ranks[i]![t]! === NO_MATCH) continue;
          for (const n of f.postings[t]!) {
            let earlier = false;
            for (let j = 0; j < i && !earlier; j++) earlier = rankIn(j, n) < NO_MATCH;
            if (!earlier) total++;
          }
        }
      });
    }
    // The page: branches by (rank, field), each text of that rank in byte order, its plants in id order; a plant
    // is taken where it ranks best (the first field among equals), so a branch skips those that rank better
    // elsewhere.
    const need = offset + limit;
    const hits: IndexHit[] = [];
    let seen = 0;
    outer: for (const rank of reachableRanks(q)) {
      for (let i = 0; i < types.length; i++) {
        const f = fields[types[i]!]!;
        for (const t of f.sorted) {
          if (ranks[i]![t] !== rank) continue;
          const posting = f.postings[t]!;
          if (types.length === 1 && seen + posting.length <= offset) {
            seen += posting.length;
            continue;
          }
          for (const n of posting) {
            let better = false;
            for (let j = 0; j < types.length && !better; j++) {
              if (j === i) continue;
              const other = rankIn(j, n);
              better = j < i ? other <= rank : other < rank;
            }
            if (better) continue;
            if (seen >= offset) hits.push({ id: plantIds[n]!, rank, field: i });
            seen++;
            if (seen >= need) break outer;
          }
        }
      }
    }
    return { hits, total, totalIsEstimate };
  }

  return {
    apply,
    search,
    /** Plants held. */
    get size(): number {
      return plantIds.length;
    },
    /** Distinct texts held per field. */
    texts(type: SearchType): number {
      return fields[type].texts.length;
    },
  };
}

export type SearchIndex = ReturnType<typeof createSearchIndex>;

/** Bounds of a snapshot: the first transaction id not yet ended-or-started past, and the ids running below it. */
export interface SnapshotBounds {
  xmax: string;
  running: readonly string[];
}

/**
 * True when no transaction ended between two snapshots taken in this order: the bound did not move (it moves past
 * any transaction that ends above it) and every transaction running at the first is still running at the second.
 * Then nothing was committed in between, and there are no new changes to read.
 */
export function nothingEnded(before: SnapshotBounds, after: SnapshotBounds): boolean {
  if (before.xmax !== after.xmax) return false;
  const still = new Set(after.running);
  return before.running.every((xid) => still.has(xid));
}
