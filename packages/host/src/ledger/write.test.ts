import { describe, expect, it } from 'vitest';
import { ledgerTxId } from './write.js';

describe('ledgerTxId', () => {
  it('give a record one ledger transaction id, derived from its id', () => {
    expect(ledgerTxId('plt_01HZX3K6Q2W8N4B7T5R9V0C1MD')).toBe('tx_01HZX3K6Q2W8N4B7T5R9V0C1MD');
  });
});
