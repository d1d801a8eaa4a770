import { SEARCH_TYPES, type SearchType } from '@rootline/contracts/plants';
import { describe, expect, it } from 'vitest';
import { compareBytes, createSearchIndex, type IndexedPlant, nothingEnded, textRank } from './search-index.js';

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The rules of docs/plants.md over every plant: rank, first field among equals, matched text and id in byte order. */
function bruteForce(plants: IndexedPlant[], q: string, types: readonly SearchType[]) {
  const short = [...q].length < 3;
  const rank = (t: string): number => {
    if (t === '') return 4;
    if (t === q) return 0;
    if (t.startsWith(q)) return 1;
    if (t.includes(` ${q}`)) return 2;
    return !short && t.includes(q) ? 3 : 4;
  };
  return plants
    .map((p) => {
      const ranks = types.map((t) => rank(p[t]));
      const best = Math.min(...ranks);
      const field = ranks.indexOf(best);
      return { id: p.id, rank: best, field, text: p[types[field]!] };
    })
    .filter((h) => h.rank < 4)
    .sort((a, b) => a.rank - b.rank || a.field - b.field || byBytes(a.text, b.text) || byBytes(a.id, b.id))
    .map(({ id, rank, field }) => ({ id, rank, field }));
}

const SPECIES = ['tomato solanum lycopersicum', 'menthe', 'creme de menthe mentha piperita', 'basil ocimum', 'sage'];
const PLACES = ['zurich ch switzerland', 'paris fr france', 'utrecht nl netherlands', '', 'de bilt nl'];
const OWNERS = ['elodie dupre', 'menthe gardens', 'ada lovelace', 'søren straße', 'de vries', 'zoë 𝔘nicode'];

function plants(count: number, seed = 1): IndexedPlant[] {
  let s = seed;
  const r = (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  return Array.from({ length: count }, (_, i) => ({
    id: `plt_${String((i * 7919) % 100_003).padStart(8, '0')}`,
    species: SPECIES[r(SPECIES.length)]!,
    location: PLACES[r(PLACES.length)]!,
    owner: OWNERS[r(OWNERS.length)]!,
  }));
}

const QUERIES = ['menthe', 'de', 'd', 'nl', 'ment', 'tomato', 'lovelace', 'e', 'xyz', 'zoë', 'straße', '𝔘nicode', 'ch'];
const SHAPES: SearchType[][] = [[...SEARCH_TYPES], ['species'], ['location'], ['owner'], ['owner', 'species']];
const PAGES = [
  [0, 20],
  [20, 20],
  [0, 100],
  [95, 10],
  [5000, 20],
] as const;

function expectBruteForce(index: ReturnType<typeof createSearchIndex>, all: IndexedPlant[], cap: number) {
  for (const q of QUERIES) {
    for (const types of SHAPES) {
      const expected = bruteForce(all, q, types);
      for (const [offset, limit] of PAGES) {
        const got = index.search(q, types, offset, limit);
        const context = `q=${q} types=${types.join(',')} offset=${offset}`;
        expect(got.hits, context).toEqual(expected.slice(offset, offset + limit));
        if (got.totalIsEstimate) {
          expect(expected.length, context).toBeGreaterThan(cap);
          expect(got.total, context).toBeGreaterThan(cap);
        } else expect(got.total, context).toBe(expected.length);
      }
    }
  }
}

describe('textRank', () => {
  it('ranks exact, prefix, word and substring, and never a short q inside a word', () => {
    expect(textRank('menthe', 'menthe')).toBe(0);
    expect(textRank('menthe gardens', 'menthe')).toBe(1);
    expect(textRank('creme de menthe', 'menthe')).toBe(2);
    expect(textRank('peppermenthe', 'menthe')).toBe(3);
    expect(textRank('zurich ch', 'ch')).toBe(2);
    expect(textRank('zurich', 'ch')).toBe(4);
    expect(textRank('', 'a')).toBe(4);
  });
});

describe('compareBytes', () => {
  it('orders as UTF-8 bytes do, surrogate pairs after the rest of the BMP', () => {
    const texts = ['b', 'a', 'ab', '\uffff', '𝔘', 'é', 'z', 'A', '', '\ue000x'];
    expect([...texts].sort(compareBytes)).toEqual([...texts].sort(byBytes));
  });
});

describe('createSearchIndex', () => {
  it('answers what a brute-force scan answers: order, fields, kinds, pages and totals', () => {
    const all = plants(3000);
    const index = createSearchIndex({ exactTotalMax: 1000 });
    index.apply(all);
    expect(index.size).toBe(3000);
    expect(index.texts('location')).toBe(PLACES.length - 1);
    expectBruteForce(index, all, 1000);
  });

  it('keeps answering so as plants arrive one by one out of id order and their texts change', () => {
    const all = plants(600, 7);
    const index = createSearchIndex({ exactTotalMax: 100 });
    // Small batches place each plant by binary search; the big one is sorted once.
    for (let i = 0; i < 200; i += 7) index.apply(all.slice(i, Math.min(i + 7, 200)));
    index.apply(all.slice(200));
    expectBruteForce(index, all, 100);
    const changed = all.map((p, i) =>
      i % 3 === 0 ? { ...p, owner: OWNERS[(i / 3) % OWNERS.length]!, location: i % 2 ? '' : 'de bilt nl' } : p,
    );
    index.apply(changed.filter((_, i) => i % 3 === 0).slice(0, 50));
    index.apply(changed.filter((_, i) => i % 3 === 0).slice(50));
    expectBruteForce(index, changed, 100);
    expect(index.size).toBe(600);
  });

  it('finds a new text at once and stops finding a plant under the text it left', () => {
    const index = createSearchIndex();
    index.apply([{ id: 'plt_b', species: 'basil', location: 'paris fr', owner: 'ada' }]);
    expect(index.search('edelweiss', ['species'], 0, 20).hits).toEqual([]);
    index.apply([{ id: 'plt_a', species: 'edelweiss', location: '', owner: 'ada' }]);
    index.apply([{ id: 'plt_b', species: 'basil', location: '', owner: 'bram' }]);
    expect(index.search('edelweiss', [...SEARCH_TYPES], 0, 20)).toEqual({
      hits: [{ id: 'plt_a', rank: 0, field: 0 }],
      total: 1,
      totalIsEstimate: false,
    });
    expect(index.search('paris', [...SEARCH_TYPES], 0, 20).total).toBe(0);
    expect(index.search('ada', ['owner'], 0, 20).hits.map((h) => h.id)).toEqual(['plt_a']);
  });
});

describe('nothingEnded', () => {
  it('is true only when the bound stayed and every running transaction still runs', () => {
    expect(nothingEnded({ xmax: '100', running: [] }, { xmax: '100', running: [] })).toBe(true);
    expect(nothingEnded({ xmax: '100', running: ['97'] }, { xmax: '100', running: ['97', '99'] })).toBe(true);
    // A transaction above the bound ended: the bound moved.
    expect(nothingEnded({ xmax: '100', running: [] }, { xmax: '101', running: [] })).toBe(false);
    // A transaction running below the bound ended.
    expect(nothingEnded({ xmax: '100', running: ['97', '98'] }, { xmax: '100', running: ['98'] })).toBe(false);
  });
});
