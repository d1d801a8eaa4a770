import { lazy, Suspense } from 'react';
import { PartyName } from '../../../components/party-name';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type TransportEvent, useJourney } from '../api/journey';
import { JOURNEYS } from '../strings';

const WorldMap = lazy(() => import('../../../components/map/world-map').then((m) => ({ default: m.WorldMap })));

const S = JOURNEYS.journey;

function placeName(l: TransportEvent['to']): string {
  if (!l) return S.hiddenPlace;
  return [l.city, l.country].filter(Boolean).join(', ') || `${l.latitude.toFixed(3)}, ${l.longitude.toFixed(3)}`;
}

/** A leg's distance and CO2e as the journey gives them: rounded near fuzzy places, none to a hidden one. */
const legText = (e: { distanceKm: number | null; kgCo2e: number | null }) =>
  e.distanceKm === null || e.kgCo2e === null
    ? S.hiddenLeg
    : S.leg(formatNumber(e.distanceKm), formatNumber(e.kgCo2e, 2));

/** The plant's events as a timeline and its legs on a map, with distance and CO2e per event and in all. */
export function Journey({ plantId }: { plantId: string }) {
  const journey = useJourney(plantId);
  if (journey.isPending) return <Loading />;
  if (journey.error) return <ErrorAlert error={journey.error} />;
  const { events, totals } = journey.data;
  const lines = events.flatMap((e) =>
    e.from && e.to
      ? [
          {
            from: { lat: e.from.latitude, lon: e.from.longitude },
            to: { lat: e.to.latitude, lon: e.to.longitude },
            label: `${JOURNEYS.kind(e.kind)}: ${legText(e)}`,
          },
        ]
      : [],
  );
  const markers = events.flatMap((e) =>
    e.to ? [{ lat: e.to.latitude, lon: e.to.longitude, label: `${JOURNEYS.kind(e.kind)} · ${placeName(e.to)}` }] : [],
  );
  return (
    <section className="card" aria-labelledby="journey-heading">
      <h2 id="journey-heading">{S.title}</h2>
      {events.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          <p>
            <strong>{S.totals(totals.events, formatNumber(totals.distanceKm), formatNumber(totals.kgCo2e, 2))}</strong>
          </p>
          <Suspense fallback={<Loading />}>
            <WorldMap label={S.map} markers={markers} lines={lines} />
          </Suspense>
          <ol className="timeline" aria-label={S.timeline}>
            {events.map((e) => (
              <li key={e.id}>
                <strong>{JOURNEYS.kind(e.kind)}</strong> ·{' '}
                <time dateTime={e.eventTime}>{formatDateTime(e.eventTime)}</time>
                <br />
                {e.from ? S.route(placeName(e.from), placeName(e.to)) : S.routeTo(placeName(e.to))}
                {e.transportMode !== 'none' && ` ${JOURNEYS.by(e.transportMode)}`}
                <br />
                {S.handledBy} <PartyName party={e.handler} />
                {e.recipient && (
                  <>
                    {' '}
                    · {S.handedTo} <PartyName party={e.recipient} />
                  </>
                )}
                <br />
                <span className="muted">{legText(e)}</span>
                {e.correctedBy && <span className="badge bad"> {S.corrected}</span>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
