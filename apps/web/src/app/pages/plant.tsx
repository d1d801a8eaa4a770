import { useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { OwnershipProof } from '../../features/anonymous/components/ownership-proof';
import type { User } from '../../features/auth/api/session';
import { EnvironmentPanel } from '../../features/environment/components/environment-panel';
import { Journey } from '../../features/journeys/components/journey';
import { RecordEventForm } from '../../features/journeys/components/record-event-form';
import { LineageGraph } from '../../features/lineage/components/lineage-graph';
import { PhotosPanel } from '../../features/media/components/photos-panel';
import { usePlant } from '../../features/plants/api/plants';
import { PlantFacts } from '../../features/plants/components/plant-facts';
import { PropagateForm } from '../../features/plants/components/propagate-form';
import { locationOf } from '../../features/plants/components/register-plant-form';
import { CertificatePanel } from '../../features/transparency/components/certificate-panel';
import { QrPanel } from '../../features/transparency/components/qr-panel';
import { useLiveRefresh } from '../../lib/live';
import { WithSession } from '../require-session';

/**
 * A plant's page: facts, photos, lineage, journey and certificate for everyone (the public form, after the plant's
 * privacy level); environment and QR code for people signed in; what its owner can do; and, for an anonymous
 * owner, the proof of ownership made with the saved key.
 */
export function Page() {
  return <WithSession>{(user) => <PlantPage user={user} />}</WithSession>;
}

function PlantPage({ user }: { user: User | null }) {
  const { plantId = '' } = useParams();
  const navigate = useNavigate();
  const plant = usePlant(plantId);
  // What happens to the plant (a journey step, a new offspring, a certificate, a photo) shows without reloading.
  useLiveRefresh(plantId ? `plant:${plantId}` : null, [
    ['plants', 'plant', plantId],
    ['journeys', plantId],
    ['media', 'plant', plantId],
  ]);
  if (plant.isPending) return <Loading />;
  if (plant.error) return <ErrorAlert error={plant.error} />;
  const p = plant.data;
  const owns = user?.id === p.owner.id;
  return (
    <>
      <PageTitle lead={p.scientificName ?? undefined}>{p.commonName}</PageTitle>
      <div className="grid-2">
        <PlantFacts plant={p} />
        <CertificatePanel plantId={p.id} />
      </div>
      <PhotosPanel plantId={p.id} plantName={p.commonName} canUpload={owns} />
      <LineageGraph plantId={p.id} onOpen={(id) => navigate(`/plants/${id}`)} />
      <Journey plantId={p.id} />
      {user && (
        <div className="grid-2">
          <EnvironmentPanel plantId={p.id} canWrite={owns} />
          <QrPanel plantId={p.id} />
        </div>
      )}
      {p.walletAddress && <OwnershipProof plantId={p.id} walletAddress={p.walletAddress} />}
      {owns && <RecordEventForm key={p.id} plantId={p.id} start={locationOf(p)} />}
      {user && <PropagateForm key={`propagate-${p.id}`} parent={p} owner={{ id: user.id, name: user.name }} />}
    </>
  );
}
