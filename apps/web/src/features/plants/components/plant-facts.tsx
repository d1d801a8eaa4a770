import { Link } from 'react-router';
import { PartyName } from '../../../components/party-name';
import { formatDateTime } from '../../../lib/format';
import type { Plant } from '../api/plants';
import { PLANTS } from '../strings';

const S = PLANTS.facts;

export function placeOf(plant: Plant): string {
  const l = plant.location;
  if (!l) return S.hidden;
  const named = [l.city, l.country].filter(Boolean).join(', ');
  return `${named ? `${named} · ` : ''}${l.latitude.toFixed(4)}, ${l.longitude.toFixed(4)}`;
}

/** What the registry knows of a plant. */
export function PlantFacts({ plant }: { plant: Plant }) {
  return (
    <section className="card" aria-labelledby="facts-heading">
      <h2 id="facts-heading">{S.title}</h2>
      <dl className="facts">
        {plant.scientificName && (
          <>
            <dt>{S.scientificName}</dt>
            <dd>
              <i>{plant.scientificName}</i>
            </dd>
          </>
        )}
        <dt>{S.owner}</dt>
        <dd>
          <PartyName party={plant.owner} />
        </dd>
        <dt>{S.generation}</dt>
        <dd>{plant.generation}</dd>
        <dt>{S.propagation}</dt>
        <dd>{plant.propagationType ?? S.root}</dd>
        {plant.parentId && (
          <>
            <dt>{S.parent}</dt>
            <dd>
              <Link to={`/plants/${plant.parentId}`}>{plant.parentId}</Link>
            </dd>
          </>
        )}
        <dt>{S.location}</dt>
        <dd>{placeOf(plant)}</dd>
        <dt>{S.privacy}</dt>
        <dd>{plant.privacyLevel}</dd>
        <dt>{S.registered}</dt>
        <dd>{formatDateTime(plant.registeredAt)}</dd>
        <dt>{S.block}</dt>
        <dd className="mono">
          #{plant.block.index} {plant.block.hash}
        </dd>
        {plant.walletAddress && (
          <>
            <dt>{S.wallet}</dt>
            <dd className="mono">{plant.walletAddress}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
