import type { PhaseTargets } from '@rootline/contracts/farm';
import type { FarmDeviation, FarmReadingMetric, TimedFarmReading } from '@rootline/contracts/farm-batches';

/** Air temperature may stray this far (°C) beyond the night-to-day setpoint band before it is a deviation. */
export const TEMPERATURE_TOLERANCE_C = 1;
/** Nutrient solution temperature band, °C, for every crop (docs/farm.md). */
export const WATER_TEMPERATURE_C = { min: 18, max: 24 } as const;
/** Least dissolved oxygen, mg/L, for every crop (docs/farm.md). */
export const DISSOLVED_OXYGEN_MIN_MG_L = 6;

/** The band each metric is held to under a phase's targets. */
export function targetBands(t: PhaseTargets): Record<FarmReadingMetric, { min: number; max: number }> {
  const low = Math.min(t.dayTemperatureC, t.nightTemperatureC);
  const high = Math.max(t.dayTemperatureC, t.nightTemperatureC);
  return {
    temperatureC: { min: low - TEMPERATURE_TOLERANCE_C, max: high + TEMPERATURE_TOLERANCE_C },
    humidityPct: t.humidityPct,
    co2Ppm: t.co2Ppm,
    ppfd: t.ppfd,
    ecMsCm: t.ecMsCm,
    ph: t.ph,
    waterTemperatureC: WATER_TEMPERATURE_C,
    dissolvedOxygenMgL: { min: DISSOLVED_OXYGEN_MIN_MG_L, max: Number.POSITIVE_INFINITY },
  };
}

/**
 * The metrics of a reading outside their bands. A PPFD of 0 is the dark period and is not compared (except in a
 * phase that asks for darkness, where any light is a deviation).
 */
export function deviationsOf(reading: TimedFarmReading, targets: PhaseTargets): FarmDeviation[] {
  const bands = targetBands(targets);
  const out: FarmDeviation[] = [];
  for (const metric of Object.keys(bands) as FarmReadingMetric[]) {
    const value = reading[metric];
    if (value === undefined) continue;
    if (metric === 'ppfd' && value === 0) continue;
    const { min, max } = bands[metric];
    if (value < min || value > max) {
      // JSON has no infinity: an open upper bound is reported as the largest number.
      out.push({ at: reading.at, metric, value, min, max: Number.isFinite(max) ? max : Number.MAX_VALUE });
    }
  }
  return out;
}
