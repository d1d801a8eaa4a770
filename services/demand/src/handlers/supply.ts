import {
  AppError,
  type Crop,
  demandMatched,
  demandProbeRecorded,
  idFromKey,
  isOwnerOrAdmin,
  matchCreate,
  pageOf,
  pageWindow,
  supplyCommit,
  supplyCommitted,
  supplyList,
  supplyMatchList,
  type Unit,
} from '@rootline/contracts';
import { actingOwner, actingUser, KM_PER_DEGREE } from '@rootline/domain';
import { locate } from '@rootline/geocoder';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { preferencesIn } from '../db/preferences.repo.js';
import { insertMatchRun, matchRunsSince, suppliesSince } from '../db/probes.repo.js';
import {
  addMatched,
  findSupply,
  insertMatches,
  insertSupply,
  listMatchesOfSupply,
  listSupplies,
  lockOpenSupplies,
  matchesOfCrops,
  matchesOfSupplies,
  matchView,
  supplyIdsOf,
  supplyView,
} from '../db/supply.repo.js';
import { daysBetween, parseDate } from '../domain/calendar.js';
import { kgPerUnit } from '../domain/crops.js';
import { LOCATION_PRECISION_KM, snapRadiusKm } from '../domain/location-precision.js';
import { matchSupply } from '../domain/matching.js';
import { matchAsSeenBy } from '../domain/privacy.js';
import { DAY_MS, limited, type ProbeLimits, refuseProbe } from './probes.js';
import { dateField, household } from './regions.js';

/** Longest supply window. */
const MAX_WINDOW_DAYS = 366;

/**
 * Stores a supply commitment and emits `supply.committed`. A grower may commit at most `suppliesPerDay` supplies of
 * a crop in 24 hours (each is a point matching can be probed from); beyond, 429 and a refused probe in the audit log.
 */
export const commitSupply = (ctx: ServiceContext, limits: ProbeLimits) =>
  handle(supplyCommit, async (input, caller) => {
    const { ownerId } = actingOwner(caller);
    const actor = actingUser(caller);
    const from = dateField(input.window.from, 'body/window/from');
    const to = dateField(input.window.to, 'body/window/to');
    const days = daysBetween(from, to);
    if (days < 0 || days >= MAX_WINDOW_DAYS) {
      throw new AppError('VALIDATION_ERROR', `body/window must run forwards, at most ${MAX_WINDOW_DAYS} days`, [
        {
          field: 'body/window/to',
          message: `must be on or after window.from, within ${MAX_WINDOW_DAYS} days`,
          reason: 'window-invalid',
        },
      ]);
    }
    const now = ctx.clock.now();
    if (limited(actor)) {
      const today = await suppliesSince(ctx.db, ownerId, input.crop, new Date(now.getTime() - DAY_MS).toISOString());
      if (today >= limits.suppliesPerDay) {
        await refuseProbe(ctx, caller, {
          growerId: ownerId,
          what: 'supply',
          crop: input.crop,
          requestedKm: null,
          appliedKm: null,
          today: today + 1,
          limit: limits.suppliesPerDay,
        });
      }
    }
    const place = await locate(input.location);
    const quantityKg = Math.round(input.quantity * kgPerUnit(input.crop, input.unit) * 1000) / 1000;
    const row = await ctx.db.transaction(async (tx) => {
      const { row: saved, created } = await insertSupply(tx, {
        id: ctx.newId('sup', caller),
        growerId: ownerId,
        crop: input.crop,
        quantity: input.quantity,
        unit: input.unit,
        quantityKg,
        matchedKg: 0,
        windowFrom: input.window.from,
        windowTo: input.window.to,
        price: input.price,
        currency: input.currency,
        latitude: input.location.latitude,
        longitude: input.location.longitude,
        city: place.city ?? null,
        country: place.country ?? null,
        organic: input.organic,
        createdAt: now.toISOString(),
      });
      if (created) {
        await ctx.outbox.enqueue(
          tx,
          supplyCommitted,
          { supplyId: saved.id, growerId: ownerId, crop: saved.crop, quantityKg },
          caller,
        );
      }
      return saved;
    });
    return supplyView(row);
  });

/**
 * The caller's supply commitments (or those of the organization it acts for), newest first, or every grower's for an
 * ADMIN asking `scope=all`.
 */
export const listSupplyHandler = (ctx: ServiceContext) =>
  handle(supplyList, async (input, caller) => {
    const actor = actingUser(caller);
    if (input.scope === 'all' && actor.role !== 'ADMIN') {
      throw new AppError('FORBIDDEN', 'Only an administrator may list every grower’s supply', {
        field: 'scope',
        reason: 'admin-only',
      });
    }
    const { page, limit, offset } = pageWindow(input);
    const mine = actor.org?.id ?? actor.id;
    const { rows, total } = await listSupplies(ctx.db, input.scope === 'all' ? undefined : mine, offset, limit);
    return pageOf(rows.map(supplyView), page, limit, total);
  });

/**
 * The matches of one supply, nearest first, as the caller may see them (domain/privacy.ts). Only its grower and an
 * ADMIN may read them; to anyone else the supply does not exist (404), so its id tells them nothing.
 */
export const listSupplyMatchesHandler = (ctx: ServiceContext) =>
  handle(supplyMatchList, async (input, caller) => {
    const actor = actingUser(caller);
    const supply = await findSupply(ctx.db, input.supplyId);
    if (!supply || !isOwnerOrAdmin(actor, supply.growerId, 'viewer'))
      throw notFound('Supply commitment', input.supplyId);
    const { page, limit, offset } = pageWindow(input);
    const { rows, total } = await listMatchesOfSupply(ctx.db, supply.id, offset, limit);
    return pageOf(
      rows.map((m) => matchAsSeenBy(matchView(m), actor)),
      page,
      limit,
      total,
    );
  });

/**
 * Matches the caller's open supply (every grower's for an ADMIN) to nearby demand (domain/matching.ts) in one
 * transaction that locks those supplies, records the new matches (one per supply and consumer, so running it again
 * with the same inputs adds none) and emits `demand.match` for each. Answers every match of the supplies concerned,
 * as the caller may see them (domain/privacy.ts): a grower sees no consumer and distances to 5 km. The radius is
 * rounded up to the precision; a grower may run matching `matchRunsPerDay` times per crop in 24 hours, each run
 * recorded as an `evt.demand.probe.recorded` event in the audit log, and is refused (429) beyond.
 */
export const matchHandler = (ctx: ServiceContext, limits: ProbeLimits) =>
  handle(matchCreate, async (input, caller) => {
    const actor = actingUser(caller);
    const growerId = actor.role === 'ADMIN' ? undefined : actor.id;
    const now = ctx.clock.now();
    const at = now.toISOString();
    const appliedKm = snapRadiusKm(input.maxDistanceKm);
    const probe = { growerId: actor.id, what: 'match' as const, crop: input.crop ?? null };
    const since = new Date(now.getTime() - DAY_MS).toISOString();
    if (limited(actor)) {
      const today = await matchRunsSince(ctx.db, actor.id, probe.crop, since);
      if (today >= limits.matchRunsPerDay) {
        await refuseProbe(ctx, caller, {
          ...probe,
          requestedKm: input.maxDistanceKm,
          appliedKm,
          today: today + 1,
          limit: limits.matchRunsPerDay,
        });
      }
    }
    return ctx.db.transaction(async (tx) => {
      const open = await lockOpenSupplies(tx, growerId, input.crop);
      const today = (await matchRunsSince(tx, actor.id, probe.crop, since)) + 1;
      await insertMatchRun(tx, {
        id: ctx.newId('mrn'),
        ...probe,
        requestedKm: input.maxDistanceKm,
        appliedKm,
        refused: false,
        createdAt: at,
      });
      await ctx.outbox.enqueue(
        tx,
        demandProbeRecorded,
        {
          ...probe,
          requestedKm: input.maxDistanceKm,
          appliedKm,
          refused: false,
          today,
          limit: limits.matchRunsPerDay,
        },
        caller,
      );
      let created = 0;
      if (open.length > 0) {
        // Households whose cell centre is within reach may lie up to a cell farther.
        const reach = (appliedKm + LOCATION_PRECISION_KM) / KM_PER_DEGREE;
        const lats = open.map((s) => s.latitude);
        const homes = await preferencesIn(tx, {
          minLat: Math.max(-90, Math.min(...lats) - reach),
          maxLat: Math.min(90, Math.max(...lats) + reach),
        });
        const earlier = await matchesOfCrops(tx, [...new Set(open.map((s) => s.crop))]);
        const pairs = new Set(earlier.map((e) => `${e.match.supplyId}\n${e.match.consumerId}`));
        const met = earlier.map((e) => ({
          consumerId: e.match.consumerId,
          crop: e.match.crop,
          quantityKg: e.match.quantityKg,
          from: parseDate(e.from) as Date,
          to: parseDate(e.to) as Date,
        }));
        const allocations = matchSupply(
          open.map((s) => ({
            id: s.id,
            growerId: s.growerId,
            crop: s.crop as Crop,
            unit: s.unit as Unit,
            price: s.price,
            currency: s.currency,
            organic: s.organic,
            remainingKg: s.quantityKg - s.matchedKg,
            from: parseDate(s.windowFrom) as Date,
            to: parseDate(s.windowTo) as Date,
            latitude: s.latitude,
            longitude: s.longitude,
          })),
          homes.map(household),
          met,
          pairs,
          appliedKm,
        );
        const inserted = await insertMatches(
          tx,
          allocations.map((a) => ({
            id: idFromKey('mch', `${a.supplyId}\n${a.consumerId}`),
            ...a,
            createdAt: at,
          })),
        );
        for (const m of inserted) {
          await addMatched(tx, m.supplyId, m.quantityKg);
          await ctx.outbox.enqueue(
            tx,
            demandMatched,
            {
              matchId: m.id,
              supplyId: m.supplyId,
              growerId: m.growerId,
              consumerId: m.consumerId,
              crop: m.crop,
              quantityKg: m.quantityKg,
              distanceKm: m.distanceKm,
            },
            caller,
          );
        }
        created = inserted.length;
      }
      const all = await matchesOfSupplies(tx, await supplyIdsOf(tx, growerId, input.crop));
      return { matches: all.map((m) => matchAsSeenBy(matchView(m), actor)), created };
    });
  });
