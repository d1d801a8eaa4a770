import { describe, expect, it } from 'vitest';
import { RecentWriters } from './read-your-writes.js';

describe('RecentWriters', () => {
  it("keeps a caller's window until it ends, then forgets it", () => {
    const w = new RecentWriters();
    w.note('user:a', 5_000);
    expect(w.wroteRecently('user:a', 4_999)).toBe(true);
    expect(w.wroteRecently('user:b', 4_999)).toBe(false);
    expect(w.wroteRecently('user:a', 5_000)).toBe(false);
    expect(w.size).toBe(0);
  });

  it('keeps the later end when told of an earlier one (a broadcast arriving after a newer local write)', () => {
    const w = new RecentWriters();
    w.note('user:a', 9_000);
    w.note('user:a', 6_000);
    expect(w.heldUntil('user:a')).toBe(9_000);
    w.note('user:a', 12_000);
    expect(w.heldUntil('user:a')).toBe(12_000);
  });

  it('holds at most its bound, dropping the window that ends first', () => {
    const w = new RecentWriters(2);
    w.note('user:a', 1_000);
    w.note('user:b', 2_000);
    w.note('user:a', 3_000);
    w.note('user:c', 4_000);
    expect(w.size).toBe(2);
    expect(w.heldUntil('user:b')).toBeUndefined();
    expect(w.heldUntil('user:a')).toBe(3_000);
    expect(w.heldUntil('user:c')).toBe(4_000);
  });
});
