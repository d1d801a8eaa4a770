import { describe, expect, it } from 'vitest';
import { mergeCurrent } from './current.js';

describe('mergeCurrent', () => {
  it('replaces a category by a newer record and keeps it against an older one', () => {
    const first = mergeCurrent({}, {}, { soil: { ph: 6 }, climate: { temperatureC: 20 } }, '2026-11-20T10:00:00.000Z');
    const newer = mergeCurrent(first.current, first.times, { soil: { ph: 6.5 } }, '2026-11-21T10:00:00.000Z');
    expect(newer.current).toEqual({ soil: { ph: 6.5 }, climate: { temperatureC: 20 } });
    const older = mergeCurrent(
      newer.current,
      newer.times,
      { soil: { ph: 5 }, lighting: { hoursPerDay: 9 } },
      '2026-11-19T00:00:00.000Z',
    );
    expect(older.current).toEqual({ soil: { ph: 6.5 }, climate: { temperatureC: 20 }, lighting: { hoursPerDay: 9 } });
    expect(older.times).toEqual({
      soil: '2026-11-21T10:00:00.000Z',
      climate: '2026-11-20T10:00:00.000Z',
      lighting: '2026-11-19T00:00:00.000Z',
    });
  });
});
