import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { describeView } from '../../../components/map/geo';
import { Pager } from '../../../components/pager';
import { PhotoFrame } from '../../../components/photo';
import { PlaceSearch } from '../../../components/place-search';
import { ErrorAlert, Loading } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { LISTING_CATEGORIES, type ListingHit, type ListingSearch, useListingSearch } from '../api/listings';
import { formatMoney, toMinor } from '../lib/money';
import { MARKET } from '../strings';
import './listing-cards.css';

const WorldMap = lazy(() => import('../../../components/map/world-map').then((m) => ({ default: m.WorldMap })));

const S = MARKET.browse;
const PAGE_SIZE = 10;

interface Filters {
  q: string;
  category: string;
  minPrice: string;
  maxPrice: string;
  lat: string;
  lon: string;
  radius: string;
  /** The town the point was found by, if it was (only for the map's words; the search takes the point). */
  place: string;
}
const EMPTY: Filters = {
  q: '',
  category: '',
  minPrice: '',
  maxPrice: '',
  lat: '',
  lon: '',
  radius: '50',
  place: '',
};

/** The filters as the search operation takes them (prices typed in major units, read as cents). */
function toQuery(f: Filters, page: number): ListingSearch {
  const lat = Number(f.lat);
  const lon = Number(f.lon);
  const point = f.lat.trim() !== '' && f.lon.trim() !== '' && Number.isFinite(lat) && Number.isFinite(lon);
  const min = toMinor(f.minPrice, 'EUR');
  const max = toMinor(f.maxPrice, 'EUR');
  return {
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
    ...(f.category ? { category: f.category as ListingSearch['category'] } : {}),
    ...(min !== null ? { minPrice: min } : {}),
    ...(max !== null ? { maxPrice: max } : {}),
    ...(point ? { lat, lon, radius: Number(f.radius) || 50 } : {}),
    page,
    limit: PAGE_SIZE,
  };
}

/** Search of active listings by words, category, price range and distance, shown as a list or on a map. */
export function ListingSearchPanel() {
  const [form, setForm] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [view, setView] = useState<'list' | 'map'>('list');
  const search = useListingSearch(toQuery(filters, page));
  const set = (patch: Partial<Filters>) => setForm({ ...form, ...patch });
  const lat = Number(form.lat);
  const lon = Number(form.lon);
  const hasPoint = form.lat !== '' && form.lon !== '' && Number.isFinite(lat) && Number.isFinite(lon);
  const km = Math.min(Math.max(Number(form.radius) || 50, 1), 500);
  return (
    <>
      <section className="card" aria-labelledby="market-filters">
        <h2 id="market-filters">{S.filters}</h2>
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            setFilters(form);
            setPage(1);
          }}
        >
          <Field
            label={S.q}
            name="q"
            type="search"
            value={form.q}
            onChange={(e) => set({ q: e.target.value })}
            error={errorFor(search.error, 'q')}
          />
          <div className="row">
            <SelectField
              label={S.category}
              name="category"
              value={form.category}
              onChange={(category) => set({ category })}
              options={[
                { value: '', label: S.anyCategory },
                ...LISTING_CATEGORIES.map((c) => ({ value: c, label: MARKET.categories[c] })),
              ]}
            />
            <Field
              label={S.radius}
              name="radius"
              type="number"
              min="1"
              max="500"
              value={form.radius}
              onChange={(e) => set({ radius: e.target.value })}
              error={errorFor(search.error, 'radius')}
            />
          </div>
          <div className="row">
            <Field
              label={S.minPrice}
              name="minPrice"
              inputMode="decimal"
              hint={S.priceHint}
              value={form.minPrice}
              onChange={(e) => set({ minPrice: e.target.value })}
              error={errorFor(search.error, 'minPrice')}
            />
            <Field
              label={S.maxPrice}
              name="maxPrice"
              inputMode="decimal"
              hint={S.priceHint}
              value={form.maxPrice}
              onChange={(e) => set({ maxPrice: e.target.value })}
              error={errorFor(search.error, 'maxPrice')}
            />
          </div>
          <fieldset className="form">
            <legend>{S.near}</legend>
            <p className="hint">{S.nearHint}</p>
            <PlaceSearch
              label={S.place}
              hint={S.placeHint}
              onChoose={(p) => {
                // A town chosen is a search asked for: it runs at once, around the town, with the other filters.
                const next = { ...form, lat: String(p.latitude), lon: String(p.longitude), place: p.name };
                setForm(next);
                setFilters(next);
                setPage(1);
              }}
            />
            <Suspense fallback={<Loading />}>
              <WorldMap
                label={S.pickMap}
                markers={
                  hasPoint ? [{ lat, lon, label: form.place || S.point(lat, lon), tone: 'other', passive: true }] : []
                }
                onPick={(la, lo) => set({ lat: la.toFixed(4), lon: lo.toFixed(4), place: '' })}
                {...(hasPoint
                  ? {
                      area: { lat, lon, km },
                      description: describeView({ lat, lon, ...(form.place ? { name: form.place } : {}) }, km),
                    }
                  : {})}
              />
            </Suspense>
            <div className="row">
              <Field
                label={S.latitude}
                name="lat"
                inputMode="decimal"
                value={form.lat}
                onChange={(e) => set({ lat: e.target.value, place: '' })}
                error={errorFor(search.error, 'lat')}
              />
              <Field
                label={S.longitude}
                name="lon"
                inputMode="decimal"
                value={form.lon}
                onChange={(e) => set({ lon: e.target.value, place: '' })}
                error={errorFor(search.error, 'lon')}
              />
            </div>
            {hasPoint && (
              <p className="actions">
                <button type="button" className="secondary" onClick={() => set({ lat: '', lon: '', place: '' })}>
                  {S.clearPoint}
                </button>
              </p>
            )}
          </fieldset>
          <p className="actions">
            <button type="submit">{S.submit}</button>
          </p>
        </form>
      </section>
      <section className="card" aria-labelledby="market-results">
        <h2 id="market-results">{S.found(search.data?.pagination.total ?? 0)}</h2>
        <fieldset className="view-switch">
          <legend>{S.view}</legend>
          {(['list', 'map'] as const).map((v) => (
            <label key={v} className="checkbox">
              <input type="radio" name="view" value={v} checked={view === v} onChange={() => setView(v)} />
              {v === 'list' ? S.list : S.map}
            </label>
          ))}
        </fieldset>
        <ErrorAlert error={search.error} />
        {search.isPending ? (
          <Loading />
        ) : search.data ? (
          <>
            <p role="status" className="visually-hidden">
              {S.found(search.data.pagination.total)}
            </p>
            {search.data.items.length === 0 ? (
              <p>{S.none}</p>
            ) : view === 'list' ? (
              <ListingList items={search.data.items} />
            ) : (
              <ListingMap items={search.data.items} />
            )}
            <Pager
              page={search.data.pagination.page}
              totalPages={search.data.pagination.totalPages}
              onPage={setPage}
              label={MARKET.browse.pages}
            />
          </>
        ) : null}
      </section>
    </>
  );
}

/**
 * Listings as a shop's cards: the cover photo (its alt text says what it shows), the title as the link, the price,
 * who sells it by name (one read for the whole page, ADR 200), then category, what is left and where. The seller is
 * left out where the page is the seller's own.
 */
export function ListingList({
  items,
  showSeller = true,
}: {
  items: readonly (ListingHit | Omit<ListingHit, 'distanceKm'>)[];
  showSeller?: boolean;
}) {
  const people = usePeople(showSeller ? items.map((l) => l.sellerId) : []);
  return (
    <ul className="listing-cards">
      {items.map((l) => {
        const seller = showSeller ? people.nameOf(l.sellerId) : undefined;
        return (
          <li key={l.id} className="listing-card">
            <PhotoFrame photo={l.coverPhoto} size="medium" />
            <Link className="listing-card-title" to={`/market/listings/${l.id}`}>
              {l.title}
            </Link>
            <span className="listing-card-price">{formatMoney(l.price, l.currency)}</span>
            {seller && <span className="listing-card-seller">{S.soldBy(seller)}</span>}
            <span className="muted">
              {MARKET.categories[l.category]} · {S.left(l.quantity)}
              {l.location?.city && ` · ${l.location.city}`}
              {'distanceKm' in l && l.distanceKm !== null && <> · {S.distance(formatNumber(l.distanceKm))}</>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function ListingMap({ items }: { items: readonly ListingHit[] }) {
  const placed = items.filter((l) => l.location);
  return (
    <>
      <Suspense fallback={<Loading />}>
        <WorldMap
          label={S.resultsMap}
          tall
          markers={placed.map((l) => ({
            lat: l.location!.latitude,
            lon: l.location!.longitude,
            label: `${l.title} · ${formatMoney(l.price, l.currency)}`,
            href: `/market/listings/${l.id}`,
          }))}
        />
      </Suspense>
      {placed.length < items.length && <p className="hint">{S.hiddenOnMap(items.length - placed.length)}</p>}
      <ListingList items={items} />
    </>
  );
}
