import { describe, expect, it } from 'vitest';
import { parseRoom, roomKind, roomsOfEvent } from './rooms.js';

describe('room names', () => {
  it('parses the four kinds', () => {
    expect(parseRoom('network')).toEqual({ kind: 'network' });
    expect(parseRoom('user:usr_abc')).toEqual({ kind: 'user', id: 'usr_abc' });
    expect(parseRoom('plant:plt_0123456789')).toEqual({ kind: 'plant', id: 'plt_0123456789' });
    expect(parseRoom('farm:frm_x1')).toEqual({ kind: 'farm', id: 'frm_x1' });
    expect(roomKind('farm:frm_x1')).toBe('farm');
    expect(roomKind('network')).toBe('network');
  });

  it('refuses unknown kinds and ids of another kind of record', () => {
    for (const bad of ['', 'Network', 'user:', 'plant:usr_abc', 'farm:plt_0123456789', 'room:x', 'user:usr_a b']) {
      expect(parseRoom(bad)).toBeNull();
    }
  });
});

describe('rooms of a public event', () => {
  it('goes to the network, the plant, the farm and every account it names', () => {
    const rooms = roomsOfEvent({
      data: { plantId: 'plt_0123456789', farmId: 'frm_1', sellerId: 'usr_s', handlerId: 'usr_h', offerId: 'ofr_1' },
    });
    expect(rooms.sort()).toEqual(['farm:frm_1', 'network', 'plant:plt_0123456789', 'user:usr_h', 'user:usr_s']);
  });

  it('ignores values that are not ids of their kind', () => {
    expect(roomsOfEvent({ data: { plantId: null, farmId: 'x', crop: 'usr_like' } })).toEqual(['network']);
  });
});
