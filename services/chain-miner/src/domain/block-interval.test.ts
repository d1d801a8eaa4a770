import { describe, expect, it } from 'vitest';
import { intervalLeft } from './block-interval.js';

const options = { blockIntervalMs: 250, maxBlockTx: 100 };
const next = { previousSize: 20, sinceAssembledMs: 100, queued: 10 };

describe('intervalLeft', () => {
  it('under load, waits for what is left of the interval since the previous block', () => {
    expect(intervalLeft(next, options)).toBe(150);
    expect(intervalLeft({ ...next, sinceAssembledMs: 250 }, options)).toBe(0);
    expect(intervalLeft({ ...next, sinceAssembledMs: Number.POSITIVE_INFINITY }, options)).toBe(0);
  });

  it('lets a full block go at once', () => {
    expect(intervalLeft({ ...next, queued: 100 }, options)).toBe(0);
    expect(intervalLeft({ ...next, queued: 99 }, options)).toBe(150);
  });

  it('never holds a lone submitter back: at most one transaction queued, after a block of at most one', () => {
    expect(intervalLeft({ ...next, previousSize: 1, queued: 1 }, options)).toBe(0);
    expect(intervalLeft({ ...next, previousSize: 0, queued: 1 }, options)).toBe(0);
    // Submitted through another instance: in the table, none queued here.
    expect(intervalLeft({ ...next, previousSize: 1, queued: 0 }, options)).toBe(0);
  });

  it('counts several queued transactions, or a previous block that answered several submitters, as load', () => {
    expect(intervalLeft({ ...next, previousSize: 1, queued: 2 }, options)).toBe(150);
    expect(intervalLeft({ ...next, previousSize: 2, queued: 1 }, options)).toBe(150);
    expect(intervalLeft({ ...next, previousSize: 2, queued: 0 }, options)).toBe(150);
  });

  it('waits no longer than the interval, whatever the clock did', () => {
    expect(intervalLeft({ ...next, sinceAssembledMs: -5000 }, options)).toBe(250);
  });
});
