import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, toApiLocation } from '../../../components/location-picker';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { type SupplyInput, useCommitSupply, useMatchSupply } from '../api/demand';
import { CROPS, DEMAND, UNITS } from '../strings';
import { MatchTable } from './match-table';

const S = DEMAND.supply;
type Crop = SupplyInput['crop'];
type Unit = SupplyInput['unit'];
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Commits supply: a crop, a quantity over a window, a price, a place. */
export function CommitSupplyForm() {
  const commit = useCommitSupply();
  const today = new Date();
  const [crop, setCrop] = useState<Crop>('tomato');
  const [quantity, setQuantity] = useState('');
  const [unit, setUnit] = useState<Unit>('kg');
  const [from, setFrom] = useState(isoDay(today));
  const [to, setTo] = useState(isoDay(new Date(today.getTime() + 13 * 86_400_000)));
  const [price, setPrice] = useState('');
  const [organic, setOrganic] = useState(false);
  const [place, setPlace] = useState(EMPTY_LOCATION);
  const [problem, setProblem] = useState<string | null>(null);
  const err = commit.error;
  return (
    <form
      className="card form"
      aria-labelledby="commit-title"
      onSubmit={(e) => {
        e.preventDefault();
        const at = toApiLocation(place);
        setProblem(at ? null : S.missingLocation);
        if (!at) return;
        commit.mutate({
          crop,
          quantity: Number(quantity),
          unit,
          window: { from, to },
          price: Math.round(Number(price) * 100),
          currency: 'EUR',
          location: at,
          organic,
        });
      }}
    >
      <h2 id="commit-title">{S.commit}</h2>
      <ErrorAlert error={problem ?? err} />
      {commit.data && <Notice>{S.committed(formatNumber(commit.data.quantityKg, 2), commit.data.crop)}</Notice>}
      <div className="row">
        <SelectField
          label={S.crop}
          name="crop"
          value={crop}
          onChange={(v) => setCrop(v as Crop)}
          options={CROPS.map((c) => ({ value: c, label: c }))}
        />
        <Field
          label={S.quantity}
          name="quantity"
          type="number"
          min={0.01}
          step="any"
          required
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={errorFor(err, 'quantity')}
        />
        <SelectField
          label={S.unit}
          name="unit"
          value={unit}
          onChange={(v) => setUnit(v as Unit)}
          options={UNITS.map((u) => ({ value: u, label: DEMAND.units[u] }))}
        />
      </div>
      <div className="row">
        <Field
          label={S.from}
          name="from"
          type="date"
          required
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          error={errorFor(err, 'from')}
        />
        <Field
          label={S.to}
          name="to"
          type="date"
          required
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={errorFor(err, 'to')}
        />
        <Field
          label={S.price}
          name="price"
          type="number"
          min={0}
          step={0.01}
          required
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          error={errorFor(err, 'price')}
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={organic} onChange={(e) => setOrganic(e.target.checked)} />
        {S.organic}
      </label>
      <LocationPicker legend="Where the supply is" value={place} onChange={setPlace} />
      <button type="submit" disabled={commit.isPending}>
        {commit.isPending ? S.busy : S.submit}
      </button>
    </form>
  );
}

/** Matches the caller's open supply with households nearby and lists the matches. */
export function MatchPanel() {
  const match = useMatchSupply();
  const [crop, setCrop] = useState('');
  const [distance, setDistance] = useState('50');
  const err = match.error;
  return (
    <section className="card" aria-labelledby="match-title">
      <h2 id="match-title">{S.match}</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          match.mutate({ ...(crop ? { crop: crop as Crop } : {}), maxDistanceKm: Number(distance) });
        }}
      >
        <div className="row">
          <SelectField
            label={S.matchCrop}
            name="crop"
            value={crop}
            onChange={setCrop}
            options={[{ value: '', label: S.anyCrop }, ...CROPS.map((c) => ({ value: c, label: c }))]}
          />
          <Field
            label={S.maxDistance}
            name="maxDistanceKm"
            type="number"
            min={1}
            max={500}
            required
            value={distance}
            onChange={(e) => setDistance(e.target.value)}
            error={errorFor(err, 'maxDistanceKm')}
          />
        </div>
        <ErrorAlert error={err} />
        <button type="submit" disabled={match.isPending}>
          {match.isPending ? S.matchBusy : S.matchSubmit}
        </button>
      </form>
      {match.data && (
        <div role="status">
          <p>{S.matched(match.data.matches.length, match.data.created)}</p>
          {match.data.matches.length === 0 ? (
            <p>{S.noMatches}</p>
          ) : (
            <MatchTable matches={match.data.matches} caption={S.match} withCrop />
          )}
        </div>
      )}
    </section>
  );
}
