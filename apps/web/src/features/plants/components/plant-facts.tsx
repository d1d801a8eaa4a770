import { Link } from 'react-router';
import { PartyName } from '../../../components/party-name';
import { RecordIds } from '../../../components/record-ids';
import { formatDateTime } from '../../../lib/format';
import { type Plant, useRelatedPlant } from '../api/plants';
import { PLANTS } from '../strings';

const S = PLANTS.facts;

export function placeOf(plant: Plant): string {
  const l = plant.location;
  if (!l) return S.hidden;
  const named = [l.city, l.country].filter(Boolean).join(', ');
  return `${named ? `${named} · ` : ''}${l.latitude.toFixed(4)}, ${l.longitude.toFixed(4)}`;
}

/** Whether an owner id names an organization (which owns records its members act on), not an account. */
export const isOrganization = (ownerId: string) => ownerId.startsWith('org_');

/** What the registry knows of a plant; one an organization owns says so first, by the organization's name. */
export function PlantFacts({ plant }: { plant: Plant }) {
  // The parent is named by its own record: one read, cached for its page.
  const parent = useRelatedPlant(plant.parentId);
  const parentName = parent.data?.commonName;
  return (
    <section className="card" aria-labelledby="facts-heading">
      <h2 id="facts-heading">{S.title}</h2>
      {isOrganization(plant.owner.id) && (
        <p className="facts-owned-by">
          <Link to={`/organizations/${plant.owner.id}`}>{S.ownedBy(plant.owner.accountName ?? plant.owner.name)}</Link>
        </p>
      )}
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
              <Link to={`/plants/${plant.parentId}`}>{parentName ?? S.parentPlant}</Link>
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
        <dd>{S.blockNumber(plant.block.index)}</dd>
        {plant.walletAddress && (
          <>
            <dt>{S.wallet}</dt>
            <dd className="mono">{plant.walletAddress}</dd>
          </>
        )}
      </dl>
      <RecordIds
        ids={[
          { label: S.ids.plant, value: plant.id },
          { label: S.ids.parent, value: plant.parentId },
          { label: S.ids.owner, value: plant.owner.id },
          { label: S.ids.block, value: plant.block.hash },
        ]}
      />
    </section>
  );
}
