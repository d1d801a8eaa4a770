import type { Crop, GrowingMethod, Unit } from '@rootline/contracts/demand';

/**
 * One crop of the demand model. Figures are typical, rounded values for temperate Europe (sources and how they
 * were read in docs/demand.md): good enough to rank crops against each other, not to plan a farm's budget.
 */
export interface CropProfile {
  /** Typical weight of one piece and of one bunch (kg); null when the crop is not sold that way. */
  kgPerPiece: number | null;
  kgPerBunch: number | null;
  /** Days from sowing or planting out to the first harvest. */
  daysToHarvest: number;
  /** Marketable yield of one cycle per m² (kg), per growing method; null where the method does not suit it. */
  yieldKgPerM2: Record<GrowingMethod, number | null>;
  /** Months (1–12, northern hemisphere) in which it may be sown or planted out in the open field / a greenhouse. */
  openFieldMonths: readonly number[];
  greenhouseMonths: readonly number[];
  /** Reference farm-gate price, EUR cents per kg, used when no nearby consumer states a maximum price. */
  referencePricePerKg: number;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ALL_YEAR = range(1, 12);

export const CROP_TABLE: Readonly<Record<Crop, CropProfile>> = {
  tomato: crop(0.12, null, 75, [4, 12, null], range(4, 6), range(2, 7), 350),
  lettuce: crop(0.4, null, 50, [2.5, 3.5, 4], range(3, 8), range(2, 10), 250),
  spinach: crop(null, 0.25, 40, [1.2, 1.8, 2.5], [3, 4, 5, 8, 9], range(2, 10), 500),
  kale: crop(null, 0.25, 55, [2, 2.5, 3], range(3, 7), range(2, 9), 450),
  carrot: crop(0.06, 0.5, 70, [4, 5, null], range(3, 7), range(2, 9), 150),
  beetroot: crop(0.08, 0.5, 60, [3, 3.5, null], range(4, 7), range(3, 8), 180),
  radish: crop(null, 0.2, 28, [1.5, 1.8, 2], range(3, 9), ALL_YEAR, 300),
  potato: crop(0.21, null, 100, [3.5, null, null], [3, 4, 5], [], 100),
  onion: crop(0.11, 0.3, 110, [3.5, null, null], [3, 4], [], 120),
  garlic: crop(0.05, null, 240, [1, null, null], [10, 11], [], 900),
  cucumber: crop(0.3, null, 55, [4, 20, null], [5, 6], range(2, 8), 200),
  zucchini: crop(0.2, null, 50, [4, 6, null], range(5, 7), range(3, 7), 200),
  pepper: crop(0.12, null, 80, [2, 8, null], [5, 6], range(2, 6), 450),
  'green-bean': crop(null, null, 55, [1.5, 2.5, null], range(5, 7), range(3, 8), 500),
  pea: crop(null, null, 65, [0.8, 1, null], range(3, 5), range(2, 4), 600),
  strawberry: crop(0.02, null, 90, [1, 3, 4], [4, 5, 8], range(2, 9), 800),
  basil: crop(null, 0.05, 35, [1, 2, 3], range(5, 7), range(3, 9), 2500),
  microgreens: crop(null, 0.05, 12, [null, 1.5, 2.5], [], ALL_YEAR, 3000),
};

function crop(
  kgPerPiece: number | null,
  kgPerBunch: number | null,
  daysToHarvest: number,
  [openField, greenhouse, vertical]: [number | null, number | null, number | null],
  openFieldMonths: number[],
  greenhouseMonths: number[],
  referencePricePerKg: number,
): CropProfile {
  return {
    kgPerPiece,
    kgPerBunch,
    daysToHarvest,
    yieldKgPerM2: { 'open-field': openField, greenhouse, vertical },
    openFieldMonths,
    greenhouseMonths,
    referencePricePerKg,
  };
}

/** Kilograms in one `unit` of the crop; a piece or bunch of a crop not sold that way counts as its nearest form. */
export function kgPerUnit(cropName: Crop, unit: Unit): number {
  const c = CROP_TABLE[cropName];
  if (unit === 'kg') return 1;
  if (unit === 'piece') return c.kgPerPiece ?? c.kgPerBunch ?? 1;
  return c.kgPerBunch ?? c.kgPerPiece ?? 1;
}

/** Months in which the crop may be started with the method (vertical farms: all year, climate is controlled). */
export function sowingMonths(cropName: Crop, method: GrowingMethod): readonly number[] {
  const c = CROP_TABLE[cropName];
  if (c.yieldKgPerM2[method] === null) return [];
  if (method === 'vertical') return ALL_YEAR;
  return method === 'greenhouse' ? c.greenhouseMonths : c.openFieldMonths;
}
