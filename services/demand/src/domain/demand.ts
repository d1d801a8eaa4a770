import type { Crop, Season, Unit } from '@rootline/contracts/demand';
import { haversineKm, type Point } from '@rootline/domain';
import { isoDate, overlapDays, seasonOf } from './calendar.js';
import { kgPerUnit } from './crops.js';

/** A household's wish for one crop, as stored with its preferences. */
export interface DemandItem {
  crop: Crop;
  quantityPerWeek: number;
  unit: Unit;
  maxPrice?: number | undefined;
  currency: string;
  organicOnly: boolean;
  localOnly: boolean;
  seasons: Season[];
}

export interface Household extends Point {
  consumerId: string;
  radiusKm: number;
  items: DemandItem[];
}

export interface SupplyWindow extends Point {
  crop: string;
  /** Still uncommitted kilograms spread evenly over the window's days. */
  quantityKg: number;
  from: Date;
  to: Date;
}

/** Kilograms a household wants of an item in the week starting `monday` (0 outside the item's seasons). */
export function weeklyKg(h: Point, item: DemandItem, monday: Date): number {
  return item.seasons.includes(seasonOf(monday, h.latitude))
    ? item.quantityPerWeek * kgPerUnit(item.crop, item.unit)
    : 0;
}

/** The share of a supply that falls in the week starting `monday`, in kg (spread evenly over its days). */
export function supplyInWeek(s: SupplyWindow, monday: Date): number {
  const days = Math.round((s.to.getTime() - s.from.getTime()) / 86_400_000) + 1;
  return (s.quantityKg * overlapDays(monday, s.from, s.to)) / days;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export interface CropDemand {
  crop: string;
  consumers: number;
  demandKg: number;
  supplyKg: number;
  gapKg: number;
  weeks: { weekStart: string; demandKg: number; supplyKg: number; gapKg: number }[];
}

/**
 * Weekly demand per crop of the households, net of the supplies: for each week and crop, demand is the sum of the
 * households' weekly quantities in kg (zero in a season they did not ask for), supply the part of each commitment
 * that falls in the week, the gap their difference (never below 0). Crops sorted by total gap, largest first.
 */
export function aggregateDemand(households: Household[], supplies: SupplyWindow[], weeks: Date[]): CropDemand[] {
  const byCrop = new Map<string, CropDemand & { who: Set<string> }>();
  const entry = (crop: string) => {
    let e = byCrop.get(crop);
    if (!e) {
      e = {
        crop,
        consumers: 0,
        demandKg: 0,
        supplyKg: 0,
        gapKg: 0,
        who: new Set(),
        weeks: weeks.map((w) => ({ weekStart: isoDate(w), demandKg: 0, supplyKg: 0, gapKg: 0 })),
      };
      byCrop.set(crop, e);
    }
    return e;
  };
  for (const h of households) {
    for (const item of h.items) {
      const e = entry(item.crop);
      e.who.add(h.consumerId);
      weeks.forEach((w, i) => {
        (e.weeks[i] as CropDemand['weeks'][number]).demandKg += weeklyKg(h, item, w);
      });
    }
  }
  for (const s of supplies) {
    const e = byCrop.get(s.crop);
    if (!e) continue; // supply of a crop nobody here asked for leaves no gap to fill
    weeks.forEach((w, i) => {
      (e.weeks[i] as CropDemand['weeks'][number]).supplyKg += supplyInWeek(s, w);
    });
  }
  return [...byCrop.values()]
    .map(({ who, ...e }) => {
      const ws = e.weeks.map((w) => ({
        weekStart: w.weekStart,
        demandKg: round(w.demandKg),
        supplyKg: round(w.supplyKg),
        gapKg: round(Math.max(0, w.demandKg - w.supplyKg)),
      }));
      const sum = (k: 'demandKg' | 'supplyKg' | 'gapKg') => round(ws.reduce((a, w) => a + w[k], 0));
      return {
        ...e,
        consumers: who.size,
        demandKg: sum('demandKg'),
        supplyKg: sum('supplyKg'),
        gapKg: sum('gapKg'),
        weeks: ws,
      };
    })
    .sort((a, b) => b.gapKg - a.gapKg || a.crop.localeCompare(b.crop));
}

/** Households within `radiusKm` of a point. */
export function within<T extends Point>(rows: T[], center: Point, radiusKm: number): T[] {
  return rows.filter((r) => haversineKm(center, r) <= radiusKm);
}
