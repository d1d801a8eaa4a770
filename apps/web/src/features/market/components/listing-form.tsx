import { type FormEvent, useId, useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, type LocationValue, toApiLocation } from '../../../components/location-picker';
import { type PrivacyLevel, PrivacyLevelField } from '../../../components/privacy-level-field';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import {
  LISTING_CATEGORIES,
  type Listing,
  type ListingCategory,
  useCreateListing,
  useUpdateListing,
} from '../api/listings';
import { toMajorText, toMinor } from '../lib/money';
import { MARKET } from '../strings';

const S = MARKET.form;

/** One of the seller's plants, as the page hands it over: a listing made from it shows its lineage. */
export interface PlantChoice {
  id: string;
  commonName: string;
  generation: number;
  location: LocationValue;
}

/** A labelled multi-line text input with the API's error for it. */
function TextArea({
  label,
  name,
  value,
  onChange,
  error,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={4}
        maxLength={4000}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Create a listing, optionally from one of the seller's plants, as a draft or published at once. */
export function CreateListingForm({
  plants,
  onCreated,
}: {
  plants: readonly PlantChoice[];
  onCreated: (listing: Listing) => void;
}) {
  const create = useCreateListing();
  const [key] = useState(() => crypto.randomUUID());
  const [plantId, setPlantId] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState<ListingCategory>('seedlings');
  const [price, setPrice] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [quantity, setQuantity] = useState('1');
  const [location, setLocation] = useState<LocationValue>(EMPTY_LOCATION);
  const [privacyLevel, setPrivacyLevel] = useState<PrivacyLevel>('city');
  const [draft, setDraft] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const err = (name: string) => errorFor(create.error, name);

  const choosePlant = (id: string) => {
    setPlantId(id);
    const plant = plants.find((p) => p.id === id);
    if (!plant) return;
    if (!title.trim()) setTitle(plant.commonName);
    if (plant.location.latitude) setLocation(plant.location);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const point = toApiLocation(location);
    const minor = toMinor(price, currency.trim().toUpperCase() || 'EUR');
    if (minor === null) return setProblem(S.badPrice);
    if (!point) return setProblem(S.missingLocation);
    setProblem(null);
    create.mutate(
      {
        key,
        body: {
          title: title.trim(),
          description: description.trim(),
          category,
          ...(plantId ? { plantId } : {}),
          price: minor,
          currency: currency.trim().toUpperCase(),
          quantity: Number(quantity),
          location: point,
          privacyLevel,
          status: draft ? 'draft' : 'active',
        },
      },
      { onSuccess: onCreated },
    );
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      <SelectField
        label={S.plant}
        name="plantId"
        value={plantId}
        onChange={choosePlant}
        hint={S.plantHint}
        error={err('plantId')}
        options={[
          { value: '', label: S.noPlant },
          ...plants.map((p) => ({ value: p.id, label: S.plantOption(p.commonName, p.generation) })),
        ]}
      />
      <Field
        label={S.title}
        name="title"
        required
        maxLength={120}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={err('title')}
      />
      <TextArea
        label={S.description}
        name="description"
        value={description}
        onChange={setDescription}
        error={err('description')}
      />
      <div className="row">
        <SelectField
          label={S.category}
          name="category"
          value={category}
          onChange={(v) => setCategory(v as ListingCategory)}
          options={LISTING_CATEGORIES.map((c) => ({ value: c, label: MARKET.categories[c] }))}
          error={err('category')}
        />
        <Field
          label={S.quantity}
          name="quantity"
          type="number"
          min="1"
          required
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={err('quantity')}
        />
      </div>
      <div className="row">
        <Field
          label={S.price(currency.toUpperCase() || '…')}
          name="price"
          inputMode="decimal"
          required
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          error={err('price')}
        />
        <Field
          label={S.currency}
          name="currency"
          maxLength={3}
          hint={S.currencyHint}
          value={currency}
          onChange={(e) => setCurrency(e.target.value)}
          error={err('currency')}
        />
      </div>
      <LocationPicker
        value={location}
        onChange={setLocation}
        errors={{
          latitude: err('latitude'),
          longitude: err('longitude'),
          city: err('city'),
          country: err('country'),
        }}
      />
      <PrivacyLevelField value={privacyLevel} onChange={setPrivacyLevel} error={err('privacyLevel')} />
      <label className="checkbox">
        <input type="checkbox" checked={draft} onChange={(e) => setDraft(e.target.checked)} />
        {S.asDraft}
      </label>
      {problem && (
        <div className="alert alert-error" role="alert">
          {problem}
        </div>
      )}
      <ErrorAlert error={create.error} />
      <p className="actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? S.busy : S.create}
        </button>
      </p>
    </form>
  );
}

/** Change what a draft or active listing says: title, description, price and quantity. */
export function EditListingForm({ listing, onDone }: { listing: Listing; onDone: () => void }) {
  const update = useUpdateListing(listing.id);
  const [title, setTitle] = useState(listing.title);
  const [description, setDescription] = useState(listing.description);
  const [price, setPrice] = useState(toMajorText(listing.price, listing.currency));
  const [quantity, setQuantity] = useState(String(listing.quantity));
  const [problem, setProblem] = useState<string | null>(null);
  const err = (name: string) => errorFor(update.error, name);
  return (
    <section className="card" aria-labelledby="edit-listing">
      <h2 id="edit-listing">{S.editTitle}</h2>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const minor = toMinor(price, listing.currency);
          if (minor === null) return setProblem(S.badPrice);
          setProblem(null);
          update.mutate(
            { title: title.trim(), description: description.trim(), price: minor, quantity: Number(quantity) },
            { onSuccess: onDone },
          );
        }}
      >
        <Field
          label={S.title}
          name="title"
          maxLength={120}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={err('title')}
        />
        <TextArea
          label={S.description}
          name="description"
          value={description}
          onChange={setDescription}
          error={err('description')}
        />
        <div className="row">
          <Field
            label={S.price(listing.currency)}
            name="price"
            inputMode="decimal"
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            error={err('price')}
          />
          <Field
            label={S.quantity}
            name="quantity"
            type="number"
            min="1"
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
            error={err('quantity')}
          />
        </div>
        {problem && (
          <div className="alert alert-error" role="alert">
            {problem}
          </div>
        )}
        <ErrorAlert error={update.error} />
        {update.isSuccess && <Notice>{S.saved}</Notice>}
        <p className="actions">
          <button type="submit" disabled={update.isPending}>
            {update.isPending ? S.busy : S.save}
          </button>
          <button type="button" className="secondary" onClick={onDone}>
            {S.cancelEdit}
          </button>
        </p>
      </form>
    </section>
  );
}
