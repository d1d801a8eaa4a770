import { AppError, farmGet, farmListOwned, farmRegister, isOwnerOrAdmin, zoneAdd, zoneList } from '@rootline/contracts';
import { actingOwner, actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { locate } from '@rootline/geocoder';
import { type HandlerContext, handle, notFound, type ServiceContext } from '@rootline/host';
import {
  findFarm,
  findFarmRow,
  insertFarm,
  insertZone,
  listZones,
  ownedFarmIds,
  plantsGrowing,
  toZone,
} from '../db/farms.repo.js';

/** The farm, or NOT_FOUND. */
export async function requireFarm(ctx: ServiceContext, farmId: string) {
  const farm = await findFarmRow(ctx.db, farmId);
  if (!farm) throw notFound('Farm', farmId);
  return farm;
}

/**
 * Reads of a farm's operational data (batches, readings, analytics): only its owner or an ADMIN, as its live room;
 * FORBIDDEN for anyone else (`details.reason` not-owner). A farm's profile and zones are read by every signed-in
 * user.
 */
export function assertOperator(call: HandlerContext, ownerId: string): void {
  if (!isOwnerOrAdmin(call.actor, ownerId)) {
    throw new AppError('FORBIDDEN', "Only the farm's owner (or an ADMIN) may read its operational data", {
      reason: 'not-owner',
    });
  }
}

/** farm.farm.register: a farm owned by the caller. */
export const registerFarm = (ctx: ServiceContext) =>
  handle(farmRegister, async (input, call) => {
    const { ownerId, actor } = actingOwner(call);
    const id = ctx.newId('frm', call);
    const existing = await findFarm(ctx.db, id);
    if (existing) return existing;
    await insertFarm(ctx.db, {
      id,
      name: input.name,
      location: await locate(input.location),
      floorAreaM2: input.floorAreaM2,
      levels: input.levels,
      lightingSystem: input.lightingSystem,
      climateSystem: input.climateSystem,
      ownerId,
      createdBy: actor.id,
      createdAt: ctx.clock.now().toISOString(),
    });
    return (await findFarm(ctx.db, id))!;
  });

export const getFarm = (ctx: ServiceContext) =>
  handle(farmGet, async ({ farmId }) => {
    const farm = await findFarm(ctx.db, farmId);
    if (!farm) throw notFound('Farm', farmId);
    return farm;
  });

/** farm.zone.add: only the farm's owner (or an ADMIN) adds zones. */
export const addZone = (ctx: ServiceContext) =>
  handle(zoneAdd, async ({ farmId, ...input }, call) => {
    const farm = await requireFarm(ctx, farmId);
    assertOwnerOrAdmin(call, farm.ownerId);
    const row = {
      id: ctx.newId('zon', call),
      farmId,
      name: input.name,
      level: input.level,
      areaM2: input.areaM2,
      growingMethod: input.growingMethod,
      capacity: input.capacity,
      setpoints: input.setpoints ?? {},
      createdAt: ctx.clock.now().toISOString(),
    };
    const stored = await insertZone(ctx.db, row);
    return toZone(stored, (await plantsGrowing(ctx.db, [stored.id])).get(stored.id) ?? 0);
  });

export const getZones = (ctx: ServiceContext) =>
  handle(zoneList, async ({ farmId }) => {
    await requireFarm(ctx, farmId);
    return { items: await listZones(ctx.db, farmId) };
  });

/** farm.farm.list-owned: the farms the caller owns (an ADMIN too: its own), newest first. */
export const listOwnedFarms = (ctx: ServiceContext) =>
  handle(farmListOwned, async (_input, call) => {
    const ids = await ownedFarmIds(ctx.db, actingUser(call).id);
    const items = await Promise.all(ids.map((id) => findFarm(ctx.db, id)));
    return { items: items.filter((f) => f !== undefined) };
  });
