import type { SensorReading } from '@rootline/contracts/transport';
import type { PatternKind } from '@rootline/contracts/transport-tracker';
import { haversineKm, type Point } from '@rootline/domain';
import { EMISSION_FACTORS } from './carbon.js';

/** What pattern detection reads of an event. */
export interface ScannedEvent {
  id: string;
  kind: string;
  handlerId: string;
  plantId: string | null;
  transportMode: string;
  distanceKm: number;
  massKg: number;
  kgCo2e: number;
  from: Point | null;
  to: Point | null;
  sensorReadings: SensorReading[];
}

export interface Pattern {
  kind: PatternKind;
  eventId: string;
  userId: string;
  plantId: string | null;
  kgCo2e: number;
  reason: string;
}

/**
 * Chilled food must be kept at 8 °C or below (UK Food Safety and Hygiene (England) Regulations 2013, Schedule 4,
 * chill holding); a reading above it in transit breaks the cold chain.
 */
export const COLD_CHAIN_MAX_C = 8;
/** An event emitting at least this much with no mass moved is high-carbon. */
export const HIGH_CARBON_MIN_KG = 1;
/** An event moving mass is high-carbon above this multiple of a diesel HGV's kg CO2e per tonne-km… */
export const HIGH_CARBON_INTENSITY_FACTOR = 5;
/** …when it emits at least this much (trivial trips are not worth flagging). */
export const HIGH_CARBON_FLOOR_KG = 0.1;
/** A journey longer than this multiple of the straight line, plus the slack below, is a detour. */
export const DETOUR_FACTOR = 1.5;
/** Slack for obfuscated end points (a fuzzy location moves up to 5 km). */
export const DETOUR_SLACK_KM = 5;

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The inefficiencies one event shows (none for most). */
export function detectPatterns(e: ScannedEvent): Pattern[] {
  const found: Pattern[] = [];
  const add = (kind: PatternKind, reason: string) =>
    found.push({ kind, eventId: e.id, userId: e.handlerId, plantId: e.plantId, kgCo2e: e.kgCo2e, reason });

  const limit = HIGH_CARBON_INTENSITY_FACTOR * EMISSION_FACTORS['hgv-diesel'].perTonneKm;
  const tonneKm = (e.massKg / 1000) * e.distanceKm;
  if (tonneKm > 0 && e.kgCo2e >= HIGH_CARBON_FLOOR_KG && e.kgCo2e / tonneKm > limit) {
    add(
      'high-carbon',
      `${round(e.kgCo2e / tonneKm)} kg CO2e per tonne-km by ${e.transportMode}, over ${round(limit)} ` +
        `(${HIGH_CARBON_INTENSITY_FACTOR} × a diesel HGV)`,
    );
  } else if (e.massKg === 0 && e.kgCo2e >= HIGH_CARBON_MIN_KG) {
    add('high-carbon', `${e.kgCo2e} kg CO2e by ${e.transportMode} with no mass recorded`);
  }

  const warm = e.sensorReadings.filter((r) => r.temperatureC !== undefined && r.temperatureC > COLD_CHAIN_MAX_C);
  if (warm.length > 0) {
    const max = Math.max(...warm.map((r) => r.temperatureC as number));
    add(
      'cold-chain-break',
      `${warm.length} of ${e.sensorReadings.length} readings above ${COLD_CHAIN_MAX_C} °C (highest ${max} °C)`,
    );
  }

  if (e.from && e.to) {
    const straight = haversineKm(e.from, e.to);
    if (e.distanceKm > DETOUR_FACTOR * straight + DETOUR_SLACK_KM) {
      add('long-detour', `${round(e.distanceKm, 1)} km travelled for ${round(straight, 1)} km in a straight line`);
    }
  }

  const factor = EMISSION_FACTORS[e.transportMode as keyof typeof EMISSION_FACTORS];
  if (factor && factor.perVehicleKm > 0 && e.massKg === 0 && e.distanceKm > 0) {
    add('empty-run', `${round(e.distanceKm, 1)} km by ${e.transportMode} with no load recorded`);
  }
  return found;
}

/** Efficiency of a user's deliveries: 100 × (1 − actual ÷ baseline), clamped; null without deliveries. */
export function efficiencyScore(actualKgCo2e: number, baselineKgCo2e: number): number | null {
  if (baselineKgCo2e <= 0) return null;
  return Math.round(Math.min(100, Math.max(0, 100 * (1 - actualKgCo2e / baselineKgCo2e))) * 10) / 10;
}

/** A ≥ 80, B ≥ 60, C ≥ 40, D ≥ 20, E below. */
export function efficiencyRating(score: number | null): 'A' | 'B' | 'C' | 'D' | 'E' | null {
  if (score === null) return null;
  if (score >= 80) return 'A';
  if (score >= 60) return 'B';
  if (score >= 40) return 'C';
  if (score >= 20) return 'D';
  return 'E';
}
