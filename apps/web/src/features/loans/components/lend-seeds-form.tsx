import { useState } from 'react';
import { Link } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Notice } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { errorFor } from '../../../lib/errors';
import type { SeedLot } from '../../seeds/api/seed-lots';
import { quantityText } from '../../seeds/components/seed-lot-list';
import { SEEDS } from '../../seeds/strings';
import { LOAN_SEASONS, useLend } from '../api/loans';
import { LOANS } from '../strings';
import { dueText } from './loan-list';

const S = LOANS.lend;

/** "Lend seeds": the lot's holder lends part of it to a borrower (by account id) until the end of a season. */
export function LendSeedsForm({ lot }: { lot: SeedLot }) {
  const lend = useLend(lot.id);
  const nextYear = String(new Date().getFullYear() + 1);
  const empty = { borrower: '', amount: '', season: 'autumn', year: nextYear, notes: '' };
  const [form, setForm] = useState(empty);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const err = (name: string) => errorFor(lend.error, name);
  const unit = lot.quantity ? SEEDS.units[lot.quantity.unit] : '';
  // The borrower's id named back before anything is sent: an id typed wrong shows at once.
  const borrowerId = form.borrower.trim();
  const people = usePeople([borrowerId]);
  const borrowerName = people.nameOf(borrowerId);
  const named =
    borrowerId === '' || people.isPending ? null : borrowerName ? S.borrowerNamed(borrowerName) : S.borrowerUnknown;
  return (
    <form
      className="card stack"
      aria-labelledby="lend-seeds-form"
      onSubmit={(e) => {
        e.preventDefault();
        lend.mutate(
          {
            borrower: { id: form.borrower.trim() },
            quantity: { amount: Number(form.amount) },
            dueSeason: `${form.year.trim()}-${form.season}`,
            ...(form.notes.trim() ? { notes: form.notes.trim() } : {}),
          },
          { onSuccess: () => setForm(empty) },
        );
      }}
    >
      <h2 id="lend-seeds-form">{S.title}</h2>
      <p>{S.lead}</p>
      {lend.data && (
        <Notice>
          {S.done(quantityText(lend.data.quantity), lend.data.borrower.name, dueText(lend.data.dueSeason))}{' '}
          <Link to="/loans">{LOANS.list.link}</Link>
        </Notice>
      )}
      <div className="seed-form-grid">
        <Field
          label={S.borrower}
          name="borrower"
          required
          value={form.borrower}
          onChange={set('borrower')}
          hint={
            <>
              {S.borrowerHint} <span aria-live="polite">{named}</span>
            </>
          }
          error={err('borrower.id')}
        />
        <Field
          label={S.amount(unit)}
          name="amount"
          required
          inputMode="decimal"
          value={form.amount}
          onChange={set('amount')}
          error={err('quantity.amount')}
        />
        <SelectField
          label={S.season}
          name="season"
          value={form.season}
          onChange={(season) => setForm({ ...form, season })}
          options={LOAN_SEASONS.map((s) => ({ value: s, label: LOANS.season(s) }))}
        />
        <Field
          label={S.year}
          name="year"
          required
          inputMode="numeric"
          pattern="\d{4}"
          value={form.year}
          onChange={set('year')}
          error={err('dueSeason')}
        />
      </div>
      <div className="field">
        <label htmlFor="lend-notes">{S.notes}</label>
        <textarea id="lend-notes" rows={2} maxLength={1000} value={form.notes} onChange={set('notes')} />
      </div>
      <ErrorAlert error={lend.error} />
      <div className="actions">
        <button type="submit" disabled={lend.isPending}>
          {lend.isPending ? S.busy : S.submit}
        </button>
      </div>
    </form>
  );
}
