import { lazy, useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../components/field';
import { describeView, formatPoint } from '../../../components/map/geo';
import { PartyName } from '../../../components/party-name';
import { PhotoFrame } from '../../../components/photo';
import { PlaceSearch } from '../../../components/place-search';
import { ErrorAlert, Loading } from '../../../components/status';
import { WhenNear } from '../../../components/when-near';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { useNearby, useSearch } from '../api/discover';
import { PLANTS } from '../strings';

const WorldMap = lazy(() => import('../../../components/map/world-map').then((m) => ({ default: m.WorldMap })));

const S = PLANTS.discover;

export function NearbyMap() {
  // The point searched around: a town found by name (which also moves the map there) or a click on the map.
  const [point, setPoint] = useState<{ lat: number; lon: number; name?: string } | null>(null);
  const [radius, setRadius] = useState('50');
  const km = Math.min(Math.max(Number(radius) || 50, 1), 500);
  const nearby = useNearby(point, km);
  const items = nearby.data?.items ?? [];
  return (
    <section className="card" aria-labelledby="nearby-heading">
      <h2 id="nearby-heading">{S.nearby}</h2>
      <p className="hint">{S.nearbyHint}</p>
      <PlaceSearch
        label={S.place}
        hint={S.placeHint}
        onChoose={(p) => setPoint({ lat: p.latitude, lon: p.longitude, name: p.name })}
      />
      <Field
        label={S.radius}
        name="radius"
        type="number"
        min="1"
        max="500"
        value={radius}
        onChange={(e) => setRadius(e.target.value)}
      />
      {/* Fetched once the card is painted: the text above and below it is the page's first view, the map follows. */}
      <WhenNear height="460px">
        <WorldMap
          label={S.map}
          tall
          onPick={(lat, lon) => setPoint({ lat, lon })}
          {...(point ? { area: { lat: point.lat, lon: point.lon, km }, description: describeView(point, km) } : {})}
          markers={[
            ...(point
              ? [
                  {
                    lat: point.lat,
                    lon: point.lon,
                    label: point.name ?? S.chosenPoint,
                    tone: 'other' as const,
                    passive: true,
                  },
                ]
              : []),
            ...items.flatMap((p) =>
              p.location
                ? [
                    {
                      lat: p.location.latitude,
                      lon: p.location.longitude,
                      label: p.commonName,
                      href: `/plants/${p.id}`,
                    },
                  ]
                : [],
            ),
          ]}
        />
      </WhenNear>
      <ErrorAlert error={nearby.error} />
      {!point ? (
        <p>{S.pick}</p>
      ) : nearby.data ? (
        <>
          <p role="status">
            {S.found(items.length, formatNumber(nearby.data.pagination.total), nearby.data.pagination.totalIsEstimate)}
          </p>
          <ul className="results" aria-label={S.near(point.name ?? formatPoint(point))}>
            {items.map((p) => (
              <li key={p.id} className="photo-row">
                <PhotoFrame photo={p.coverPhoto} />
                <span>
                  <Link to={`/plants/${p.id}`}>{p.commonName}</Link> · {formatNumber(p.distanceKm)} km
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Loading />
      )}
    </section>
  );
}

export function PlantSearch() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const search = useSearch(q, page);
  return (
    <section className="card" aria-labelledby="search-heading">
      <h2 id="search-heading">{S.search}</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text);
          setPage(1);
        }}
      >
        <Field
          label={S.query}
          name="q"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={errorFor(search.error, 'q')}
        />
        <button type="submit">{S.submit}</button>
      </form>
      <ErrorAlert error={search.error} />
      {search.data && (
        <>
          <p role="status">
            {S.results(formatNumber(search.data.pagination.total), search.data.pagination.totalIsEstimate)}
          </p>
          <ul className="results">
            {search.data.items.map((p) => (
              <li key={p.id} className="photo-row">
                <PhotoFrame photo={p.coverPhoto} />
                <span>
                  <Link to={`/plants/${p.id}`}>{p.commonName}</Link>
                  {p.location?.city && ` · ${p.location.city}`} · <PartyName party={p.owner} />{' '}
                  <span className="muted">({S.matched(p.match.field, p.match.kind)})</span>
                </span>
              </li>
            ))}
          </ul>
          {search.data.pagination.totalPages > 1 && (
            <nav className="pager" aria-label={S.pages}>
              <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {S.previous}
              </button>
              <span>{S.page(search.data.pagination.page, search.data.pagination.totalPages)}</span>
              <button
                type="button"
                className="secondary"
                disabled={page >= search.data.pagination.totalPages}
                onClick={() => setPage(page + 1)}
              >
                {S.next}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
