import type { PhaseTargets } from '@rootline/contracts/farm';
import { describe, expect, it } from 'vitest';
import { deviationsOf } from './compliance.js';

const targets: PhaseTargets = {
  ppfd: { min: 270, max: 320 },
  photoperiodHours: 16,
  dayTemperatureC: 24,
  nightTemperatureC: 19,
  humidityPct: { min: 50, max: 70 },
  co2Ppm: { min: 800, max: 1200 },
  ecMsCm: { min: 1.1, max: 1.3 },
  ph: { min: 5.6, max: 6.0 },
};
const at = '2026-11-23T08:00:00.000Z';

describe('deviations of a reading', () => {
  it('finds none for a reading within every band', () => {
    expect(
      deviationsOf(
        { at, temperatureC: 23, humidityPct: 60, co2Ppm: 1000, ppfd: 300, ecMsCm: 1.2, ph: 5.8, waterTemperatureC: 21 },
        targets,
      ),
    ).toEqual([]);
  });

  it('holds air temperature to the night–day band widened by 1 °C', () => {
    expect(deviationsOf({ at, temperatureC: 18.2 }, targets)).toEqual([]);
    expect(deviationsOf({ at, temperatureC: 25.5 }, targets)).toEqual([
      { at, metric: 'temperatureC', value: 25.5, min: 18, max: 25 },
    ]);
  });

  it('ignores PPFD 0 (lights off) but reports dim light', () => {
    expect(deviationsOf({ at, ppfd: 0 }, targets)).toEqual([]);
    expect(deviationsOf({ at, ppfd: 150 }, targets)).toEqual([{ at, metric: 'ppfd', value: 150, min: 270, max: 320 }]);
  });

  it('reports low dissolved oxygen and each metric out of range', () => {
    const found = deviationsOf({ at, dissolvedOxygenMgL: 4, ph: 6.5, ecMsCm: 2 }, targets);
    expect(found.map((d) => d.metric)).toEqual(['ecMsCm', 'ph', 'dissolvedOxygenMgL']);
  });
});
