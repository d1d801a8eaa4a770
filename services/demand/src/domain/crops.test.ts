import { CROPS } from '@rootline/contracts/demand';
import { describe, expect, it } from 'vitest';
import { CROP_TABLE, kgPerUnit, sowingMonths } from './crops.js';

describe('crop table', () => {
  it('has a profile for every crop of the contract, with sane figures', () => {
    expect(Object.keys(CROP_TABLE).sort()).toEqual([...CROPS].sort());
    for (const c of Object.values(CROP_TABLE)) {
      expect(c.daysToHarvest).toBeGreaterThan(0);
      expect(c.referencePricePerKg).toBeGreaterThan(0);
      expect(Object.values(c.yieldKgPerM2).some((y) => y !== null)).toBe(true);
    }
  });

  it('converts pieces and bunches to kilograms, falling back to the form the crop is sold in', () => {
    expect(kgPerUnit('tomato', 'piece')).toBe(0.12);
    expect(kgPerUnit('tomato', 'kg')).toBe(1);
    expect(kgPerUnit('basil', 'piece')).toBe(0.05);
    expect(kgPerUnit('pea', 'bunch')).toBe(1);
  });

  it('sows vertical crops all year and none where the method does not grow the crop', () => {
    expect(sowingMonths('lettuce', 'vertical')).toHaveLength(12);
    expect(sowingMonths('potato', 'greenhouse')).toEqual([]);
    expect(sowingMonths('garlic', 'open-field')).toEqual([10, 11]);
  });
});
