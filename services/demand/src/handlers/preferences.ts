import {
  AppError,
  newId,
  pageOf,
  pageWindow,
  preferenceGet,
  preferenceList,
  preferenceSave,
} from '@rootline/contracts';
import { actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { locate } from '@rootline/geocoder';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { findPreference, listPreferences, preferenceView, upsertPreference } from '../db/preferences.repo.js';
import { gridCell } from '../domain/location-precision.js';
import { publicationWeek } from '../domain/privacy.js';

/**
 * Stores the caller's own preferences, replacing earlier ones (one set per consumer). A household new or moved to
 * another grid cell counts in aggregates from now plus HOUSEHOLD_MIN_AGE_DAYS; items changed this week count from
 * the next publication week, the ones they replace until then (domain/privacy.ts).
 */
export const savePreferences = (ctx: ServiceContext) =>
  handle(preferenceSave, async (input, caller) => {
    const actor = actingUser(caller);
    const now = ctx.clock.now();
    const place = await locate(input.location);
    const existing = await findPreference(ctx.db, actor.id);
    const week = publicationWeek(now);
    const moved = !existing || gridCell(existing).key !== gridCell(input.location).key;
    const row = await upsertPreference(ctx.db, {
      id: existing?.id ?? newId('prf', now.getTime()),
      consumerId: actor.id,
      latitude: input.location.latitude,
      longitude: input.location.longitude,
      city: place.city ?? null,
      country: place.country ?? null,
      radiusKm: input.radiusKm,
      householdSize: input.householdSize,
      items: input.items,
      updatedAt: now.toISOString(),
      countedFrom: moved ? now.toISOString() : existing.countedFrom,
      itemsWeek: week,
      priorItems: !existing ? null : existing.itemsWeek === week ? existing.priorItems : existing.items,
    });
    return preferenceView(row);
  });

/** The caller's preferences (a page of at most one), or everyone's for an ADMIN asking `scope=all`. */
export const listPreferencesHandler = (ctx: ServiceContext) =>
  handle(preferenceList, async (input, caller) => {
    const actor = actingUser(caller);
    if (input.scope === 'all' && actor.role !== 'ADMIN') {
      throw new AppError('FORBIDDEN', 'Only an administrator may list everyone’s preferences', {
        field: 'scope',
        reason: 'admin-only',
      });
    }
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await listPreferences(ctx.db, input.scope === 'all' ? undefined : actor.id, offset, limit);
    return pageOf(rows.map(preferenceView), page, limit, total);
  });

export const getPreferences = (ctx: ServiceContext) =>
  handle(preferenceGet, async ({ consumerId }, caller) => {
    assertOwnerOrAdmin(caller, consumerId);
    const row = await findPreference(ctx.db, consumerId);
    if (!row) throw notFound('Preferences of consumer', consumerId);
    return preferenceView(row);
  });
