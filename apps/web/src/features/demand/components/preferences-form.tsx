import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, type LocationValue, toApiLocation } from '../../../components/location-picker';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { type Preference, type PreferenceItem, useMyPreferences, useSavePreferences } from '../api/demand';
import { CROPS, DEMAND, SEASONS, UNITS } from '../strings';

const S = DEMAND.preferences;

interface ItemDraft {
  key: number;
  crop: PreferenceItem['crop'];
  quantity: string;
  unit: PreferenceItem['unit'];
  maxPrice: string;
  organicOnly: boolean;
  localOnly: boolean;
  seasons: string[];
}

let nextKey = 0;
const newItem = (over: Partial<ItemDraft> = {}): ItemDraft => ({
  key: nextKey++,
  crop: 'tomato',
  quantity: '1',
  unit: 'kg',
  maxPrice: '',
  organicOnly: false,
  localOnly: false,
  seasons: [...SEASONS],
  ...over,
});

function draftOf(p: Preference | null) {
  if (!p) return { location: EMPTY_LOCATION, radius: '25', household: '2', items: [newItem()] };
  const l = p.location;
  const location: LocationValue = {
    latitude: String(l.latitude),
    longitude: String(l.longitude),
    city: l.city ?? '',
    country: l.country ?? '',
  };
  const items = p.items.map((i) =>
    newItem({
      crop: i.crop,
      quantity: String(i.quantityPerWeek),
      unit: i.unit,
      maxPrice: i.maxPrice === undefined ? '' : String(i.maxPrice / 100),
      organicOnly: i.organicOnly ?? false,
      localOnly: i.localOnly ?? false,
      seasons: [...(i.seasons ?? SEASONS)],
    }),
  );
  return { location, radius: String(p.radiusKm), household: String(p.householdSize), items };
}

/** The signed-in person's household preferences: shown, edited, saved (a save replaces the set). */
export function PreferencesPanel() {
  const mine = useMyPreferences();
  if (mine.isPending) return <Loading />;
  if (mine.error) return <ErrorAlert error={mine.error} />;
  // Mounted once loaded: a save updates `current` without resetting what the form shows or its saved notice.
  return <PreferencesForm current={mine.data} />;
}

function PreferencesForm({ current }: { current: Preference | null }) {
  const save = useSavePreferences();
  const start = draftOf(current);
  const [location, setLocation] = useState(start.location);
  const [radius, setRadius] = useState(start.radius);
  const [household, setHousehold] = useState(start.household);
  const [items, setItems] = useState<ItemDraft[]>(start.items);
  const [problem, setProblem] = useState<string | null>(null);
  const err = save.error;
  const update = (key: number, patch: Partial<ItemDraft>) =>
    setItems(items.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  return (
    <form
      className="card form"
      aria-labelledby="preferences-title"
      onSubmit={(e) => {
        e.preventDefault();
        const point = toApiLocation(location);
        setProblem(point ? null : S.missingLocation);
        if (!point) return;
        save.mutate({
          location: point,
          radiusKm: Number(radius),
          householdSize: Number(household),
          items: items.map((i) => ({
            crop: i.crop,
            quantityPerWeek: Number(i.quantity),
            unit: i.unit,
            ...(i.maxPrice.trim() ? { maxPrice: Math.round(Number(i.maxPrice) * 100), currency: 'EUR' } : {}),
            organicOnly: i.organicOnly,
            localOnly: i.localOnly,
            seasons: SEASONS.filter((s) => i.seasons.includes(s)),
          })),
        });
      }}
    >
      <h2 id="preferences-title">{S.title}</h2>
      {current ? <p className="hint">{S.updated(formatDateTime(current.updatedAt))}</p> : <p>{S.none}</p>}
      <ErrorAlert error={problem ?? err} />
      {save.isSuccess && <Notice>{S.saved}</Notice>}
      <LocationPicker
        value={location}
        onChange={setLocation}
        errors={{
          latitude: errorFor(err, 'latitude'),
          longitude: errorFor(err, 'longitude'),
          city: errorFor(err, 'city'),
          country: errorFor(err, 'country'),
        }}
      />
      <div className="row">
        <Field
          label={S.radius}
          name="radiusKm"
          type="number"
          min={1}
          max={500}
          step="any"
          required
          value={radius}
          onChange={(e) => setRadius(e.target.value)}
          error={errorFor(err, 'radiusKm')}
        />
        <Field
          label={S.household}
          name="householdSize"
          type="number"
          min={1}
          max={50}
          step={1}
          required
          value={household}
          onChange={(e) => setHousehold(e.target.value)}
          error={errorFor(err, 'householdSize')}
        />
      </div>
      <h3>{S.items}</h3>
      {items.map((item, index) => (
        <fieldset key={item.key} className="form">
          <legend>{`${S.crop} ${index + 1}: ${item.crop}`}</legend>
          <div className="row">
            <SelectField
              label={S.crop}
              name={`items.${index}.crop`}
              value={item.crop}
              onChange={(v) => update(item.key, { crop: v as ItemDraft['crop'] })}
              options={CROPS.map((c) => ({ value: c, label: c }))}
              error={errorFor(err, `items/${index}/crop`)}
            />
            <Field
              label={S.quantity}
              name={`items.${index}.quantityPerWeek`}
              type="number"
              min={0.01}
              step="any"
              required
              value={item.quantity}
              onChange={(e) => update(item.key, { quantity: e.target.value })}
              error={errorFor(err, `items/${index}/quantityPerWeek`)}
            />
            <SelectField
              label={S.unit}
              name={`items.${index}.unit`}
              value={item.unit}
              onChange={(v) => update(item.key, { unit: v as ItemDraft['unit'] })}
              options={UNITS.map((u) => ({ value: u, label: DEMAND.units[u] }))}
            />
            <Field
              label={S.maxPrice}
              name={`items.${index}.maxPrice`}
              type="number"
              min={0}
              step={0.01}
              value={item.maxPrice}
              onChange={(e) => update(item.key, { maxPrice: e.target.value })}
              error={errorFor(err, `items/${index}/maxPrice`)}
            />
          </div>
          <div className="checkbox-grid">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={item.organicOnly}
                onChange={(e) => update(item.key, { organicOnly: e.target.checked })}
              />
              {S.organic}
            </label>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={item.localOnly}
                onChange={(e) => update(item.key, { localOnly: e.target.checked })}
              />
              {S.local}
            </label>
          </div>
          <fieldset className="checkbox-grid">
            <legend>{S.seasons}</legend>
            {SEASONS.map((s) => (
              <label key={s} className="checkbox">
                <input
                  type="checkbox"
                  checked={item.seasons.includes(s)}
                  onChange={(e) =>
                    update(item.key, {
                      seasons: e.target.checked ? [...item.seasons, s] : item.seasons.filter((x) => x !== s),
                    })
                  }
                />
                {DEMAND.seasons[s]}
              </label>
            ))}
          </fieldset>
          {items.length > 1 && (
            <button
              type="button"
              className="secondary"
              onClick={() => setItems(items.filter((i) => i.key !== item.key))}
            >
              {S.remove(item.crop)}
            </button>
          )}
        </fieldset>
      ))}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => setItems([...items, newItem({ crop: 'lettuce' })])}>
          {S.add}
        </button>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? S.busy : S.submit}
        </button>
      </div>
    </form>
  );
}
