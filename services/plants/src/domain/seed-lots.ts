import type { GerminationMethod, GerminationTest, SeedLot, SeedLotUnit } from '@rootline/contracts/seed-lots';
import { expectedViability } from './viability.js';

/** A lot as stored (the columns the views read). */
export interface StoredSeedLot {
  id: string;
  ownerId: string;
  crop: string;
  variety: string | null;
  parentPlantIds: string[];
  harvestYear: number;
  quantityAmount: number;
  quantityUnit: string;
  storagePlace: string | null;
  storageTemperatureC: number | null;
  storageHumidityPct: number | null;
  storageContainer: string | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
  discardedAt: string | null;
}

/** A germination test as stored. */
export interface StoredGerminationTest {
  id: string;
  seedLotId: string;
  testedOn: string;
  seedsSown: number;
  germinated: number;
  method: string;
  notes: string | null;
  recordedAt: string;
}

/** The crop as the list's filter compares it: trimmed, single-spaced, lower case. */
export function cropKey(crop: string): string {
  return crop.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export function germinationTestView(t: StoredGerminationTest): GerminationTest {
  return {
    id: t.id,
    seedLotId: t.seedLotId,
    testedOn: t.testedOn,
    seedsSown: t.seedsSown,
    germinated: t.germinated,
    rate: Math.round((t.germinated / t.seedsSown) * 1000) / 1000,
    method: t.method as GerminationMethod,
    notes: t.notes,
    recordedAt: new Date(t.recordedAt).toISOString(),
  };
}

/** The storage fields, or null when none was given. */
function storageOf(r: StoredSeedLot): SeedLot['storage'] {
  const storage = {
    ...(r.storagePlace === null ? {} : { place: r.storagePlace }),
    ...(r.storageTemperatureC === null ? {} : { temperatureC: r.storageTemperatureC }),
    ...(r.storageHumidityPct === null ? {} : { humidityPct: r.storageHumidityPct }),
    ...(r.storageContainer === null ? {} : { container: r.storageContainer }),
  };
  return Object.keys(storage).length === 0 ? null : storage;
}

/**
 * A lot as answered: every field to its holder (`holder`), the public ones (crop, variety, harvest year, parents,
 * owner) to anyone else, whose quantity, storage, notes and viability are null.
 */
export function seedLotView(
  r: StoredSeedLot,
  lastTest: StoredGerminationTest | undefined,
  holder: boolean,
  now: Date,
  receivedFrom: SeedLot['receivedFrom'] = null,
): SeedLot {
  const test = lastTest ? germinationTestView(lastTest) : null;
  return {
    id: r.id,
    ownerId: r.ownerId,
    crop: r.crop,
    variety: r.variety,
    parentPlantIds: r.parentPlantIds,
    harvestYear: r.harvestYear,
    access: holder ? 'holder' : 'public',
    quantity: holder ? { amount: r.quantityAmount, unit: r.quantityUnit as SeedLotUnit } : null,
    storage: holder ? storageOf(r) : null,
    notes: holder ? r.notes : null,
    viability: holder ? expectedViability({ crop: r.crop, harvestYear: r.harvestYear, lastTest: test, now }) : null,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    discardedAt: r.discardedAt === null ? null : new Date(r.discardedAt).toISOString(),
    receivedFrom,
  };
}

/** A lot's name on a transfer and its notices: crop, variety and harvest year, e.g. "tomato, Brandywine (2026)". */
export function lotName(lot: Pick<StoredSeedLot, 'crop' | 'variety' | 'harvestYear'>): string {
  return `${lot.variety ? `${lot.crop}, ${lot.variety}` : lot.crop} (${lot.harvestYear})`;
}

/**
 * Why a lot cannot change owner, or null when it can: a discarded lot is kept only for what names it
 * (`lot-discarded`), and a lot with nothing left holds no seed to give (`lot-empty`).
 */
export function lotTransferProblem(
  lot: Pick<StoredSeedLot, 'discardedAt' | 'quantityAmount'>,
): 'lot-discarded' | 'lot-empty' | null {
  if (lot.discardedAt) return 'lot-discarded';
  if (lot.quantityAmount <= 0) return 'lot-empty';
  return null;
}
