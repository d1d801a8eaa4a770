import { TRANSPORT_MODES } from '@rootline/contracts/transport';
import { describe, expect, it } from 'vitest';
import { conventionalKg, EMISSION_FACTORS, emissionsKg, quantityKg, TREE_KG_CO2_PER_YEAR } from './carbon.js';

describe('emissions', () => {
  it('has a factor with its source for every transport mode', () => {
    for (const mode of TRANSPORT_MODES) expect(EMISSION_FACTORS[mode].source.length).toBeGreaterThan(5);
  });

  // The 2025 flat file's rows, as checked (docs/transport.md): a wrong factor fails here first.
  it('holds the published 2025 factors', () => {
    const perTonneKm = (m: keyof typeof EMISSION_FACTORS) => EMISSION_FACTORS[m].perTonneKm;
    const perVehicleKm = (m: keyof typeof EMISSION_FACTORS) => EMISSION_FACTORS[m].perVehicleKm;
    expect([perTonneKm('hgv-diesel'), perTonneKm('hgv-refrigerated'), perTonneKm('rail')]).toEqual([
      0.10163, 0.11894, 0.02779,
    ]);
    expect([perTonneKm('ship'), perTonneKm('air')]).toEqual([0.01612, 1.27835]);
    expect([perVehicleKm('diesel-van'), perVehicleKm('electric-van'), perVehicleKm('car')]).toEqual([
      0.25561, 0.06976, 0.16725,
    ]);
  });

  it('charges freight per tonne-km and cars and vans per vehicle-km', () => {
    expect(emissionsKg('hgv-diesel', 100, 1000)).toBeCloseTo(10.163, 6);
    expect(emissionsKg('rail', 100, 500)).toBeCloseTo(1.39, 6);
    expect(emissionsKg('car', 10, 0)).toBeCloseTo(1.673, 6);
    expect(emissionsKg('bicycle', 10, 20)).toBe(0);
  });

  it('measures the conventional baseline as 1640 km by diesel HGV', () => {
    expect(conventionalKg(1000)).toBeCloseTo(166.673, 6);
    expect(TREE_KG_CO2_PER_YEAR).toBe(6);
  });

  it('reads a mass from kg and g quantities only', () => {
    expect(quantityKg({ value: 250, unit: 'g' })).toBe(0.25);
    expect(quantityKg({ value: 3, unit: 'kg' })).toBe(3);
    expect(quantityKg({ value: 30, unit: 'seeds' })).toBeUndefined();
  });
});
