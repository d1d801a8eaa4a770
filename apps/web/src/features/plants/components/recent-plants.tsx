import { lazy } from 'react';
import { Link } from 'react-router';
import { PhotoFrame } from '../../../components/photo';
import { ErrorAlert, Loading } from '../../../components/status';
import { WhenNear } from '../../../components/when-near';
import { formatDateTime } from '../../../lib/format';
import { RECENT_PLANTS } from '../api/plant-queries';
import type { Plant } from '../api/plants';
import { useRecentPlants } from '../api/plants';

const WorldMap = lazy(() => import('../../../components/map/world-map').then((m) => ({ default: m.WorldMap })));

const S = {
  title: 'Newest plants',
  map: 'Map of the newest plants, where their privacy level shows them',
  noneTitle: 'No plants yet.',
  none: 'Be the first: register a plant, with an account or anonymously.',
  register: 'Register a plant',
  anonymous: 'Register anonymously',
  place: (p: Plant) => [p.location?.city, p.location?.country].filter(Boolean).join(', '),
  registered: (at: string) => `Registered ${formatDateTime(at)}`,
} as const;

/** The placeholder of a card without a photo: a sprout drawn in the card's colour. */
function Sprout() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M12 21v-9" strokeLinecap="round" />
      <path d="M12 12c0-4 3-7 8-7 0 4-3 7-8 7Z" fill="currentColor" fillOpacity="0.25" />
      <path d="M12 14c0-3.5-2.5-6-7-6 0 3.5 2.5 6 7 6Z" fill="currentColor" fillOpacity="0.25" />
    </svg>
  );
}

/**
 * The network's newest plants as cards led by their cover photo (a sprout drawn in its place for a plant without
 * one), and the same plants on a map.
 */
export function RecentPlants({ signedIn }: { signedIn: boolean }) {
  const recent = useRecentPlants(RECENT_PLANTS);
  if (recent.isPending) return <Loading />;
  if (recent.error) return <ErrorAlert error={recent.error} />;
  const plants = recent.data.items;
  const markers = plants.flatMap((p) =>
    p.location
      ? [{ lat: p.location.latitude, lon: p.location.longitude, label: p.commonName, href: `/plants/${p.id}` }]
      : [],
  );
  return (
    <section aria-labelledby="recent-heading" className="landing-section">
      <h2 id="recent-heading">{S.title}</h2>
      {plants.length === 0 ? (
        <div className="empty-state">
          <p>
            <strong>{S.noneTitle}</strong> {S.none}
          </p>
          <p className="actions centred">
            <Link className="button" to={signedIn ? '/plants/new' : '/signup'}>
              {S.register}
            </Link>
            <Link className="button secondary" to="/plants/register-anonymous">
              {S.anonymous}
            </Link>
          </p>
        </div>
      ) : (
        <div className="landing-recent">
          <ul className="cards plant-cards">
            {plants.map((p) => (
              <li key={p.id} className="card media-card">
                <div className="card-photo">
                  {p.coverPhoto?.thumbnails ? <PhotoFrame photo={p.coverPhoto} size="large" /> : <Sprout />}
                </div>
                <div className="card-body">
                  <h3>
                    <Link to={`/plants/${p.id}`}>{p.commonName}</Link>
                  </h3>
                  {p.scientificName && <p className="muted">{p.scientificName}</p>}
                  {S.place(p) && <p>{S.place(p)}</p>}
                  <p className="hint">{S.registered(p.registeredAt)}</p>
                </div>
              </li>
            ))}
          </ul>
          {markers.length > 0 && (
            // Under the cards on a phone: the map's code, outlines and town names (some 230 KB compressed) come when
            // it is scrolled into view, not for every visitor of the landing page (ADR 239).
            <WhenNear height="340px" margin="0px">
              <WorldMap label={S.map} markers={markers} />
            </WhenNear>
          )}
        </div>
      )}
    </section>
  );
}
