import { describe, expect, it } from 'vitest';
import { dueAtOf, journeyUnit, loanStatus, notGrownFromLoan } from './seed-loans.js';

describe('dueAtOf', () => {
  it('ends each season on its last day, UTC', () => {
    expect(dueAtOf('2027-spring').toISOString()).toBe('2027-05-31T23:59:59.999Z');
    expect(dueAtOf('2027-summer').toISOString()).toBe('2027-08-31T23:59:59.999Z');
    expect(dueAtOf('2027-autumn').toISOString()).toBe('2027-11-30T23:59:59.999Z');
  });

  it('ends winter at the end of February of the next year, leap years included', () => {
    expect(dueAtOf('2027-winter').toISOString()).toBe('2028-02-29T23:59:59.999Z');
    expect(dueAtOf('2026-winter').toISOString()).toBe('2027-02-28T23:59:59.999Z');
  });

  it('refuses what is no season', () => {
    expect(() => dueAtOf('2027-monsoon')).toThrow();
  });
});

describe('loanStatus', () => {
  const dueAt = '2027-11-30T23:59:59.999Z';
  it('is open up to the due instant and overdue after it', () => {
    expect(loanStatus({ returnedAt: null, dueAt }, new Date('2027-11-30T23:59:59.999Z'))).toBe('open');
    expect(loanStatus({ returnedAt: null, dueAt }, new Date('2027-12-01T00:00:00Z'))).toBe('overdue');
  });

  it('is returned once returned, late or not', () => {
    expect(loanStatus({ returnedAt: '2028-03-01T00:00:00Z', dueAt }, new Date('2029-01-01T00:00:00Z'))).toBe(
      'returned',
    );
  });
});

describe('notGrownFromLoan', () => {
  it('names the plants that are not among those grown from the loan', () => {
    expect(notGrownFromLoan(['plt_a', 'plt_b', 'plt_c'], ['plt_b'])).toEqual(['plt_a', 'plt_c']);
    expect(notGrownFromLoan(['plt_b'], ['plt_b', 'plt_d'])).toEqual([]);
  });
});

describe('journeyUnit', () => {
  it('names grams as the journey does', () => {
    expect(journeyUnit('grams')).toBe('g');
    expect(journeyUnit('seeds')).toBe('seeds');
    expect(journeyUnit('packets')).toBe('packets');
  });
});
