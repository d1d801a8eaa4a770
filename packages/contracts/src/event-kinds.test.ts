import { describe, expect, it } from 'vitest';
import { PUBLIC_EVENT_KINDS } from './event-kinds.js';
import { publicEvents } from './index.js';

describe('public event kinds', () => {
  it('are exactly the kinds of the declared events, sorted', () => {
    const declared = publicEvents()
      .map((e) => e.kind)
      .sort();
    expect([...PUBLIC_EVENT_KINDS]).toEqual(declared);
  });
});
