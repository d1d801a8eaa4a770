import { type FormEvent, useId, useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, type LocationValue, toApiLocation } from '../../../components/location-picker';
import { type PrivacyLevel, PrivacyLevelField } from '../../../components/privacy-level-field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import {
  LISTING_CATEGORIES,
  type Listing,
  type ListingCategory,
  type UploadedImage,
  useCreateListing,
  useUpdateListing,
} from '../api/listings';
import { toMajorText, toMinor } from '../lib/money';
import { MARKET } from '../strings';
import { ListingPhotosField } from './listing-photos-field';

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

/** What both creating and editing a listing ask: title, description, price and quantity, as typed. */
interface BasicsValue {
  title: string;
  description: string;
  price: string;
  quantity: string;
}

function ListingBasics({
  value,
  onChange,
  currency,
  error,
}: {
  value: BasicsValue;
  onChange: (value: BasicsValue) => void;
  currency: string;
  error: unknown;
}) {
  const set = (patch: Partial<BasicsValue>) => onChange({ ...value, ...patch });
  return (
    <>
      <Field
        label={S.title}
        name="title"
        required
        maxLength={120}
        value={value.title}
        onChange={(e) => set({ title: e.target.value })}
        error={errorFor(error, 'title')}
      />
      <TextArea
        label={S.description}
        name="description"
        value={value.description}
        onChange={(description) => set({ description })}
        error={errorFor(error, 'description')}
      />
      <div className="row">
        <Field
          label={S.price(currency || '…')}
          name="price"
          inputMode="decimal"
          required
          value={value.price}
          onChange={(e) => set({ price: e.target.value })}
          error={errorFor(error, 'price')}
        />
        <Field
          label={S.quantity}
          name="quantity"
          type="number"
          min="1"
          required
          value={value.quantity}
          onChange={(e) => set({ quantity: e.target.value })}
          error={errorFor(error, 'quantity')}
        />
      </div>
    </>
  );
}

/** The basics as the API takes them; a message instead when the price is not a number. */
function basicsBody(v: BasicsValue, currency: string) {
  const price = toMinor(v.price, currency);
  if (price === null) return S.badPrice;
  return { title: v.title.trim(), description: v.description.trim(), price, quantity: Number(v.quantity) };
}

function Problem({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div className="alert alert-error" role="alert">
      {text}
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
  const [basics, setBasics] = useState<BasicsValue>({ title: '', description: '', price: '', quantity: '1' });
  const [category, setCategory] = useState<ListingCategory>('seedlings');
  const [currency, setCurrency] = useState('EUR');
  const [location, setLocation] = useState<LocationValue>(EMPTY_LOCATION);
  const [privacyLevel, setPrivacyLevel] = useState<PrivacyLevel>('city');
  const [draft, setDraft] = useState(false);
  const [images, setImages] = useState<UploadedImage[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const err = (name: string) => errorFor(create.error, name);
  const code = currency.trim().toUpperCase();

  const choosePlant = (id: string) => {
    setPlantId(id);
    const plant = plants.find((p) => p.id === id);
    if (!plant) return;
    if (!basics.title.trim()) setBasics({ ...basics, title: plant.commonName });
    if (plant.location.latitude) setLocation(plant.location);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = basicsBody(basics, code || 'EUR');
    const point = toApiLocation(location);
    if (typeof body === 'string') return setProblem(body);
    if (!point) return setProblem(S.missingLocation);
    setProblem(null);
    create.mutate(
      {
        key,
        body: {
          ...body,
          category,
          ...(plantId ? { plantId } : {}),
          currency: code,
          location: point,
          privacyLevel,
          ...(images.length > 0 ? { imageFileIds: images.map((img) => img.id) } : {}),
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
      <ListingBasics value={basics} onChange={setBasics} currency={code} error={create.error} />
      <ListingPhotosField title={basics.title} images={images} onChange={setImages} />
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
      <Problem text={problem} />
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
  const [basics, setBasics] = useState<BasicsValue>({
    title: listing.title,
    description: listing.description,
    price: toMajorText(listing.price, listing.currency),
    quantity: String(listing.quantity),
  });
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="edit-listing">
      <h2 id="edit-listing">{S.editTitle}</h2>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const body = basicsBody(basics, listing.currency);
          if (typeof body === 'string') return setProblem(body);
          setProblem(null);
          update.mutate(body, { onSuccess: onDone });
        }}
      >
        <ListingBasics value={basics} onChange={setBasics} currency={listing.currency} error={update.error} />
        <Problem text={problem} />
        <ErrorAlert error={update.error} />
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
