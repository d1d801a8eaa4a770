import type { Bus } from '@rootline/bus';
import { type Actor, AppError, farmGet, type Permission, plantGet } from '@rootline/contracts';
import { call } from '@rootline/host';
import type { Room } from './rooms.js';

/** Who asks to join: the verified caller and what its credential allows. */
export interface RoomCaller {
  actor: Actor;
  permissions: ReadonlySet<Permission>;
  requestId: string;
}

function need(caller: RoomCaller, permission: Permission): void {
  if (!caller.permissions.has(permission)) {
    throw new AppError('FORBIDDEN', `Joining this room needs the permission ${permission}`, { permission });
  }
}

/**
 * Resolves when the caller may read the room, else throws FORBIDDEN or NOT_FOUND (or UNAVAILABLE when the service
 * that knows does not answer): `network` every signed-in user; `user:<id>` only oneself; `plant:<id>` a plant the
 * plants service shows the caller; `farm:<id>` the farm's owner or an ADMIN.
 */
export async function assertMayJoin(room: Room, caller: RoomCaller, bus: Bus, timeoutMs: number): Promise<void> {
  const ctx = { requestId: caller.requestId, actor: caller.actor };
  switch (room.kind) {
    case 'network':
      return;
    case 'user':
      if (room.id !== caller.actor.id) throw new AppError('FORBIDDEN', 'Only your own user room may be joined');
      return;
    case 'plant':
      need(caller, 'plants:read');
      await call(bus, plantGet, { plantId: room.id }, ctx, timeoutMs);
      return;
    case 'farm': {
      need(caller, 'farm:read');
      const farm = await call(bus, farmGet, { farmId: room.id }, ctx, timeoutMs);
      if (farm.ownerId !== caller.actor.id && caller.actor.role !== 'ADMIN') {
        throw new AppError('FORBIDDEN', "Only the farm's owner (or an ADMIN) may join its room", {
          reason: 'not-owner',
        });
      }
      return;
    }
  }
}
