import type { PublicEvent } from '@rootline/contracts';

export type RoomKind = 'network' | 'user' | 'plant' | 'farm';
export const ROOM_KINDS: readonly RoomKind[] = ['network', 'user', 'plant', 'farm'];

/** A room name taken apart: `network`, or `<kind>:<id>`. */
export type Room = { kind: 'network' } | { kind: 'user' | 'plant' | 'farm'; id: string };

const ROOM = /^(?:network|(user|plant|farm):((?:usr|plt|frm)_[A-Za-z0-9_-]{1,60}))$/;
const PREFIX: Record<'user' | 'plant' | 'farm', string> = { user: 'usr_', plant: 'plt_', farm: 'frm_' };

/** Parses a room name; null when it is not one (wrong kind, or an id of another kind of record). */
export function parseRoom(name: string): Room | null {
  if (name === 'network') return { kind: 'network' };
  const m = ROOM.exec(name);
  if (!m?.[1] || !m[2]) return null;
  const kind = m[1] as 'user' | 'plant' | 'farm';
  return m[2].startsWith(PREFIX[kind]) ? { kind, id: m[2] } : null;
}

export function roomKind(name: string): RoomKind {
  const i = name.indexOf(':');
  return (i < 0 ? name : name.slice(0, i)) as RoomKind;
}

/**
 * The rooms a public event goes to: `network` always; the plant and the farm it names (`plantId`, `farmId`); and
 * every account it names in a property ending in `Id` (`ownerId`, `sellerId`, `recipientId`…), as webhooks do.
 */
export function roomsOfEvent(e: Pick<PublicEvent, 'data'>): string[] {
  const rooms = new Set<string>(['network']);
  const data = (e.data ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !key.endsWith('Id')) continue;
    if (key === 'plantId' && value.startsWith('plt_')) rooms.add(`plant:${value}`);
    else if (key === 'farmId' && value.startsWith('frm_')) rooms.add(`farm:${value}`);
    else if (value.startsWith('usr_')) rooms.add(`user:${value}`);
  }
  return [...rooms];
}
