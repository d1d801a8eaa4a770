import type { GrownPlant, LoanSeason, LoanStatus, SeedLoan } from '@rootline/contracts/seed-loans';
import type { SeedLotUnit } from '@rootline/contracts/seed-lots';

/**
 * Seed loans (docs/seed-lots.md, Lending; ADR 293, 294): when a loan falls due, whether it is overdue, and the loan
 * as the API answers it.
 */

/** The month (0-based, UTC) that follows each meteorological season, and whether it is in the next year. */
const SEASON_END: Record<LoanSeason, { nextMonth: number; nextYear: boolean }> = {
  spring: { nextMonth: 5, nextYear: false }, // March–May
  summer: { nextMonth: 8, nextYear: false }, // June–August
  autumn: { nextMonth: 11, nextYear: false }, // September–November
  winter: { nextMonth: 2, nextYear: true }, // December to February of the next year
};

/** The last instant (UTC) of a due season `YYYY-season`: the loan is overdue after it. */
export function dueAtOf(dueSeason: string): Date {
  const [yearText, season] = dueSeason.split('-') as [string, LoanSeason];
  const end = SEASON_END[season];
  if (!end) throw new Error(`Not a due season: ${dueSeason}`);
  const year = Number(yearText) + (end.nextYear ? 1 : 0);
  return new Date(Date.UTC(year, end.nextMonth, 1) - 1);
}

/** A loan's status at `now`: returned once returned; overdue when still open after its due instant. */
export function loanStatus(loan: { returnedAt: string | null; dueAt: string }, now: Date): LoanStatus {
  if (loan.returnedAt) return 'returned';
  return now.getTime() > new Date(loan.dueAt).getTime() ? 'overdue' : 'open';
}

/** The plants a return may name: among `named`, those not in `grown` (the borrower's plants from the lot). */
export function notGrownFromLoan(named: readonly string[], grown: readonly string[]): string[] {
  const mine = new Set(grown);
  return named.filter((id) => !mine.has(id));
}

/** A loan as stored (the columns the view reads). */
export interface StoredSeedLoan {
  id: string;
  seedLotId: string;
  lenderId: string;
  lenderName: string;
  borrowerId: string;
  borrowerName: string;
  amount: number;
  unit: string;
  dueSeason: string;
  dueAt: string;
  notes: string | null;
  lentAt: string;
  lendEventId: string | null;
  returnedAt: string | null;
  returnLotId: string | null;
  returnEventId: string | null;
}

const iso = (t: string) => new Date(t).toISOString();

/** The loan as answered, with the loaned lot's crop and variety and the plants grown from it. */
export function seedLoanView(
  loan: StoredSeedLoan,
  lot: { crop: string; variety: string | null },
  plantsGrown: readonly GrownPlant[],
  now: Date,
): SeedLoan {
  return {
    id: loan.id,
    seedLotId: loan.seedLotId,
    crop: lot.crop,
    variety: lot.variety,
    lender: { id: loan.lenderId, name: loan.lenderName },
    borrower: { id: loan.borrowerId, name: loan.borrowerName },
    quantity: { amount: loan.amount, unit: loan.unit as SeedLotUnit },
    dueSeason: loan.dueSeason,
    dueAt: iso(loan.dueAt),
    status: loanStatus(loan, now),
    notes: loan.notes,
    lentAt: iso(loan.lentAt),
    lendEventId: loan.lendEventId,
    plantsGrown: plantsGrown.map((p) => ({ ...p })),
    returnedAt: loan.returnedAt ? iso(loan.returnedAt) : null,
    returnLotId: loan.returnLotId,
    returnEventId: loan.returnEventId,
  };
}

/** The journey quantity unit of a lot's unit (transport counts grams as `g`). */
export function journeyUnit(unit: string): 'seeds' | 'g' | 'packets' {
  return unit === 'grams' ? 'g' : (unit as 'seeds' | 'packets');
}
