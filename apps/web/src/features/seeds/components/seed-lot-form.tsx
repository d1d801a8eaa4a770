import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert } from '../../../components/status';
import { useToast } from '../../../components/toaster';
import { errorFor } from '../../../lib/errors';
import { SEED_LOT_UNITS, type SeedLotInput, type SeedLotUnit, useCreateSeedLot } from '../api/seed-lots';
import { SEEDS } from '../strings';
import { lotName } from './seed-lot-list';

const S = SEEDS.form;

const EMPTY = {
  crop: '',
  variety: '',
  harvestYear: String(new Date().getFullYear()),
  amount: '',
  unit: 'seeds' as SeedLotUnit,
  parents: '',
  place: '',
  temperature: '',
  humidity: '',
  container: '',
  notes: '',
};

/** A number typed in a field, or undefined when it is empty (a comma taken as the decimal point). */
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text.trim().replace(',', '.')));

/** Adds a lot for whoever the tab acts as; the list below refreshes. */
export function SeedLotForm() {
  const create = useCreateSeedLot();
  const toast = useToast();
  const [form, setForm] = useState(EMPTY);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const err = (name: string) => errorFor(create.error, name);
  return (
    <form
      className="card stack seed-form"
      aria-labelledby="seed-lot-form"
      onSubmit={(e) => {
        e.preventDefault();
        const storage = {
          ...(form.place.trim() ? { place: form.place.trim() } : {}),
          ...(numberOf(form.temperature) === undefined ? {} : { temperatureC: numberOf(form.temperature) }),
          ...(numberOf(form.humidity) === undefined ? {} : { humidityPct: numberOf(form.humidity) }),
          ...(form.container.trim() ? { container: form.container.trim() } : {}),
        };
        const parents = form.parents
          .split(/[\s,]+/)
          .map((p) => p.trim())
          .filter(Boolean);
        const body: SeedLotInput = {
          crop: form.crop.trim(),
          harvestYear: Number(form.harvestYear),
          quantity: { amount: numberOf(form.amount) ?? 0, unit: form.unit },
          ...(form.variety.trim() ? { variety: form.variety.trim() } : {}),
          ...(parents.length ? { parentPlantIds: parents } : {}),
          ...(Object.keys(storage).length ? { storage } : {}),
          ...(form.notes.trim() ? { notes: form.notes.trim() } : {}),
        };
        create.mutate(body, {
          onSuccess: (lot) => {
            toast(S.added(lotName(lot)));
            setForm(EMPTY);
          },
        });
      }}
    >
      <h2 id="seed-lot-form">{S.title}</h2>
      <div className="seed-form-grid">
        <Field
          label={S.crop}
          name="crop"
          required
          hint={S.cropHint}
          value={form.crop}
          onChange={set('crop')}
          error={err('crop')}
        />
        <Field label={S.variety} name="variety" value={form.variety} onChange={set('variety')} error={err('variety')} />
        <Field
          label={S.year}
          name="harvestYear"
          required
          inputMode="numeric"
          value={form.harvestYear}
          onChange={set('harvestYear')}
          error={err('harvestYear')}
        />
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
          label={S.parents}
          name="parents"
          hint={S.parentsHint}
          value={form.parents}
          onChange={set('parents')}
          error={err('parentPlantIds')}
        />
        <Field label={S.place} name="place" value={form.place} onChange={set('place')} error={err('storage.place')} />
        <Field
          label={S.temperature}
          name="temperature"
          inputMode="decimal"
          value={form.temperature}
          onChange={set('temperature')}
          error={err('storage.temperatureC')}
        />
        <Field
          label={S.humidity}
          name="humidity"
          inputMode="decimal"
          value={form.humidity}
          onChange={set('humidity')}
          error={err('storage.humidityPct')}
        />
        <Field
          label={S.container}
          name="container"
          value={form.container}
          onChange={set('container')}
          error={err('storage.container')}
        />
      </div>
      <div className="field">
        <label htmlFor="seed-lot-notes">{S.notes}</label>
        <textarea id="seed-lot-notes" rows={2} value={form.notes} onChange={set('notes')} />
      </div>
      <ErrorAlert error={create.error} />
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? S.busy : S.submit}
        </button>
      </div>
    </form>
  );
}
