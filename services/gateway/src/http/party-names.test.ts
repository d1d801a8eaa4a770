import { describe, expect, it } from 'vitest';
import { cachedAccountNames, withAccountNames } from './party-names.js';

const ACCOUNTS = new Map([
  ['usr_alice', 'Alice de Vries'],
  ['usr_bob', 'Bob Visser'],
]);

describe('current account names beside recorded ones', () => {
  it('adds accountName where it differs and the stater’s current name, in one lookup, anywhere in the answer', async () => {
    const asked: string[][] = [];
    const lookup = async (ids: readonly string[]) => {
      asked.push([...ids]);
      return new Map([...ACCOUNTS].filter(([id]) => ids.includes(id)));
    };
    const answer = {
      items: [
        { id: 'plt_1', owner: { id: 'usr_alice', name: 'Alice Hofman' } },
        { id: 'plt_2', owner: { id: 'usr_bob', name: 'Bob Visser' } },
        {
          id: 'plt_3',
          owner: { id: 'shop-grocer', name: 'Green Grocer', statedBy: { id: 'usr_alice', name: 'Alice' } },
        },
      ],
      meta: { handler: { id: 'usr_gone', name: 'Old Name' }, recipient: null },
    };
    await withAccountNames(answer, lookup);
    expect(asked).toEqual([['usr_alice', 'usr_bob', 'shop-grocer', 'usr_gone']]);
    expect(answer.items.map((i) => i.owner)).toEqual([
      { id: 'usr_alice', name: 'Alice Hofman', accountName: 'Alice de Vries' },
      { id: 'usr_bob', name: 'Bob Visser' },
      { id: 'shop-grocer', name: 'Green Grocer', statedBy: { id: 'usr_alice', name: 'Alice de Vries' } },
    ]);
    expect(answer.meta.handler).toEqual({ id: 'usr_gone', name: 'Old Name' });
  });

  it('asks nothing for an answer that names nobody', async () => {
    const lookup = async () => {
      throw new Error('asked');
    };
    expect(await withAccountNames({ items: [], total: 0 }, lookup)).toEqual({ items: [], total: 0 });
  });

  it('remembers names and unknown ids for the cache time, then asks again', async () => {
    let now = 0;
    const asked: string[][] = [];
    const names = cachedAccountNames(
      async (ids) => {
        asked.push([...ids]);
        return new Map([...ACCOUNTS].filter(([id]) => ids.includes(id)));
      },
      { ttlMs: 1000, max: 10, now: () => now },
    );
    expect(await names(['usr_alice', 'shop-grocer'])).toEqual(new Map([['usr_alice', 'Alice de Vries']]));
    expect(await names(['usr_alice', 'shop-grocer', 'usr_bob'])).toEqual(
      new Map([
        ['usr_alice', 'Alice de Vries'],
        ['usr_bob', 'Bob Visser'],
      ]),
    );
    now = 1000;
    await names(['usr_alice']);
    expect(asked).toEqual([['usr_alice', 'shop-grocer'], ['usr_bob'], ['usr_alice']]);
  });
});
