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

/**
 * The organization role that runs an organization's farm (registers it, adds zones, harvests and fails batches), as
 * the account role FARM_MANAGER runs one's own; members start batches and record readings.
 */
export const FARM_RUNNER = 'manager' as const;

/** The farm, or NOT_FOUND. */
export async function requireFarm(ctx: ServiceContext, farmId: string) {
  const farm = await findFarmRow(ctx.db, farmId);
  if (!farm) throw notFound('Farm', farmId);
  return farm;
}

/**
 * Reads of a farm's operational data (batches, readings, analytics): only its owner, a caller acting for the owning
 * organization (any role, viewers included) or an ADMIN, as its live room; FORBIDDEN for anyone else
 * (`details.reason` not-owner). A farm's profile and zones are read by every signed-in user.
 */
export function assertOperator(call: HandlerContext, ownerId: string): void {
  if (!isOwnerOrAdmin(call.actor, ownerId, 'viewer')) {
    throw new AppError('FORBIDDEN', "Only the farm's owner (or an ADMIN) may read its operational data", {
      reason: 'not-owner',
    });
  }
}

/**
 * farm.farm.register: a farm owned by the caller, or by the organization it acts for (an owner or manager of it runs
 * its farms: ADR 237).
 */
export const registerFarm = (ctx: ServiceContext) =>
  handle(farmRegister, async (input, call) => {
    const { ownerId, actor } = actingOwner(call, undefined, FARM_RUNNER);
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

/** farm.zone.add: only the farm's owner, a manager of the owning organization (or an ADMIN) adds zones. */
export const addZone = (ctx: ServiceContext) =>
  handle(zoneAdd, async ({ farmId, ...input }, call) => {
    const farm = await requireFarm(ctx, farmId);
    assertOwnerOrAdmin(call, farm.ownerId, FARM_RUNNER);
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

/**
 * farm.farm.list-owned: the farms the caller owns (an ADMIN too: its own), or those of the organization it acts for,
 * newest first.
 */
export const listOwnedFarms = (ctx: ServiceContext) =>
  handle(farmListOwned, async (_input, call) => {
    const actor = actingUser(call);
    const ids = await ownedFarmIds(ctx.db, actor.org?.id ?? actor.id);
    const items = await Promise.all(ids.map((id) => findFarm(ctx.db, id)));
    return { items: items.filter((f) => f !== undefined) };
  });
