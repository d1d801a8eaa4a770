import { useState } from 'react';
import { Link } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { shortId } from '../../../lib/format';
import { SEED_LOT_UNITS, type SeedLotUnit } from '../../seeds/api/seed-lots';
import { lotName } from '../../seeds/components/seed-lot-list';
import { SEEDS } from '../../seeds/strings';
import { type SeedLoan, useReturnLoan } from '../api/loans';
import { LOANS } from '../strings';

const S = LOANS.returns;

/** A plant grown from the loan by its name and species, and the end of its id to tell two of one name apart. */
function GrownPlantName({ plant }: { plant: SeedLoan['plantsGrown'][number] }) {
  return (
    <span>
      {plant.commonName}
      {plant.scientificName && (
        <>
          {' '}
          <i>{plant.scientificName}</i>
        </>
      )}{' '}
      <span className="muted" title={plant.id}>
        {shortId(plant.id)}
      </span>
    </span>
  );
}

/**
 * "Return seeds": the borrower returns seed saved from plants grown from the loan, chosen among them, as a new lot
 * of the lender.
 */
export function ReturnSeedsForm({ loan }: { loan: SeedLoan }) {
  const give = useReturnLoan(loan.id);
  const [chosen, setChosen] = useState<string[]>([]);
  const [form, setForm] = useState({
    amount: '',
    unit: loan.quantity.unit as SeedLotUnit,
    year: String(new Date().getFullYear()),
    notes: '',
  });
  const set = (key: 'amount' | 'year' | 'notes') => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const err = (name: string) => errorFor(give.error, name);
  const toggle = (id: string) => setChosen(chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id]);
  return (
    <form
      className="card stack"
      aria-labelledby="return-seeds-form"
      onSubmit={(e) => {
        e.preventDefault();
        give.mutate({
          parentPlantIds: chosen,
          quantity: { amount: Number(form.amount), unit: form.unit },
          harvestYear: Number(form.year),
          ...(form.notes.trim() ? { notes: form.notes.trim() } : {}),
        });
      }}
    >
      <h2 id="return-seeds-form">{S.title}</h2>
      <p>{S.lead(lotName(loan), loan.lender.name)}</p>
      {give.data ? (
        <Notice>
          {S.done(give.data.lender.name)}{' '}
          {give.data.returnLotId && <Link to={`/seed-lots/${give.data.returnLotId}`}>{S.newLot}</Link>}
        </Notice>
      ) : loan.plantsGrown.length === 0 ? (
        <p>{S.noPlants}</p>
      ) : (
        <>
          <fieldset>
            <legend>{S.plants}</legend>
            {loan.plantsGrown.map((plant) => (
              <label key={plant.id} className="checkbox">
                <input type="checkbox" checked={chosen.includes(plant.id)} onChange={() => toggle(plant.id)} />
                <GrownPlantName plant={plant} />
              </label>
            ))}
          </fieldset>
          <div className="seed-form-grid">
            <Field
              label={S.amount}
              name="amount"
              required
              inputMode="decimal"
              value={form.amount}
              onChange={set('amount')}
              error={err('quantity.amount')}
            />
            <SelectField
              label={S.unit}
              name="unit"
              value={form.unit}
              onChange={(unit) => setForm({ ...form, unit: unit as SeedLotUnit })}
              options={SEED_LOT_UNITS.map((u) => ({ value: u, label: SEEDS.units[u] }))}
            />
            <Field
              label={S.year}
              name="harvestYear"
              required
              inputMode="numeric"
              value={form.year}
              onChange={set('year')}
              error={err('harvestYear')}
            />
          </div>
          <div className="field">
            <label htmlFor="return-notes">{S.notes}</label>
            <textarea id="return-notes" rows={2} maxLength={2000} value={form.notes} onChange={set('notes')} />
          </div>
          <ErrorAlert error={give.error} />
          <div className="actions">
            <button type="submit" disabled={give.isPending || chosen.length === 0}>
              {give.isPending ? S.busy : S.submit}
            </button>
          </div>
        </>
      )}
    </form>
  );
}
