import { describe, expect, it } from 'vitest';
import { lotName, lotTransferProblem } from './seed-lots.js';

describe('a seed lot on a transfer', () => {
  it('is named by its crop, variety and harvest year', () => {
    expect(lotName({ crop: 'tomato', variety: 'Brandywine', harvestYear: 2026 })).toBe('tomato, Brandywine (2026)');
    expect(lotName({ crop: 'bean', variety: null, harvestYear: 2019 })).toBe('bean (2019)');
  });

  it('changes owner only while kept and not empty', () => {
    expect(lotTransferProblem({ discardedAt: null, quantityAmount: 12 })).toBeNull();
    expect(lotTransferProblem({ discardedAt: '2026-11-01T10:00:00.000Z', quantityAmount: 12 })).toBe('lot-discarded');
    expect(lotTransferProblem({ discardedAt: '2026-11-01T10:00:00.000Z', quantityAmount: 0 })).toBe('lot-discarded');
    expect(lotTransferProblem({ discardedAt: null, quantityAmount: 0 })).toBe('lot-empty');
  });
});
