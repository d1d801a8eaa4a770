import * as Tabs from '@radix-ui/react-tabs';
import { lazy, Suspense } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { OwnershipProof } from '../../features/anonymous/components/ownership-proof';
import { type User, useSession } from '../../features/auth/api/session';
import { EnvironmentPanel } from '../../features/environment/components/environment-panel';
import { Journey } from '../../features/journeys/components/journey';
import { RecordEventForm } from '../../features/journeys/components/record-event-form';
import { PhotosPanel } from '../../features/media/components/photos-panel';
import { useMyOrganizations } from '../../features/organizations/api/organizations';
import { usePlant } from '../../features/plants/api/plants';
import { PlantFacts } from '../../features/plants/components/plant-facts';
import { PropagateForm } from '../../features/plants/components/propagate-form';
import { locationOf } from '../../features/plants/components/register-plant-form';
import { PLANTS } from '../../features/plants/strings';
import { OwnershipHistory } from '../../features/transfers/components/ownership-history';
import { TransferForm } from '../../features/transfers/components/transfer-form';
import { PrintLabels } from '../../features/transparency/components/print-labels';
import { QrPanel } from '../../features/transparency/components/qr-panel';
import { useActingAs } from '../../lib/acting-as';
import { useLiveRefresh } from '../../lib/live';

// The graph drawing and the certificate's checks are fetched when their tab is opened, not with the page.
const LineageGraph = lazy(() =>
  import('../../features/lineage/components/lineage-graph').then((m) => ({ default: m.LineageGraph })),
);
const CertificatePanel = lazy(() =>
  import('../../features/transparency/components/certificate-panel').then((m) => ({ default: m.CertificatePanel })),
);

const S = PLANTS.page;

type Tab = keyof typeof S.tabs;
const TABS = Object.keys(S.tabs) as Tab[];

/**
 * A plant's page: its photos, then one section at a time in tabs (facts, lineage, journey, environment,
 * certificate), so a phone shows one map or graph at a time and a section's reads wait until it is opened. The
 * open tab is in the address (`?tab=journey`), so a link can open a section. Everyone sees the public form (after
 * the plant's privacy level); environment and the QR code need a session; the owner's actions sit with the section
 * they change; an anonymous owner proves ownership with the saved key under Facts.
 */
export function Page() {
  // The plant is read at once, beside the session check rather than after it (one round trip less before the
  // page shows); what depends on who is signed in appears when the session is known.
  const session = useSession();
  return <PlantPage user={session.data ?? null} />;
}

function PlantPage({ user }: { user: User | null }) {
  const { plantId = '' } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) ? asked : 'facts';
  const plant = usePlant(plantId);
  const acting = useActingAs();
  // The role acted with decides who may transfer: asked only of a person signed in and acting for an organization.
  const mine = useMyOrganizations(user !== null && Boolean(acting));
  // What happens to the plant (a journey step, a new offspring, a certificate, a photo) shows without reloading.
  useLiveRefresh(plantId ? `plant:${plantId}` : null, [
    ['plants', 'plant', plantId],
    ['journeys', plantId],
    ['media', 'plant', plantId],
  ]);
  if (plant.isPending) return <Loading />;
  if (plant.error) return <ErrorAlert error={plant.error} />;
  const p = plant.data;
  // The plant is the person's own, or that of the organization the tab acts for (as a member or more).
  const owns = user !== null && (user.id === p.owner.id || acting === p.owner.id);
  // Transferring is the owner's act: the person acting alone, or an owner or manager acting for the organization.
  const actingRole = acting ? mine.data?.find((o) => o.id === acting)?.role : undefined;
  const mayTransfer =
    user !== null &&
    ((!acting && user.id === p.owner.id) ||
      (acting === p.owner.id && (actingRole === 'owner' || actingRole === 'manager')));
  return (
    <>
      <PageTitle lead={p.scientificName ?? undefined}>{p.commonName}</PageTitle>
      <PhotosPanel plantId={p.id} plantName={p.commonName} canUpload={owns} />
      <Tabs.Root
        className="page-tabs"
        value={tab}
        onValueChange={(value) =>
          setParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              if (value === 'facts') next.delete('tab');
              else next.set('tab', value);
              return next;
            },
            { replace: true, preventScrollReset: true },
          )
        }
      >
        <Tabs.List className="tab-list" aria-label={S.sections}>
          {TABS.map((t) => (
            <Tabs.Trigger key={t} value={t} className="tab">
              {S.tabs[t]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="facts" className="tab-panel">
          <PlantFacts plant={p} />
          <OwnershipHistory subjectId={p.id} ownerName={p.owner.name} />
          {user && mayTransfer && (
            <TransferForm key={`transfer-${p.id}`} subjectId={p.id} ownerId={p.owner.id} user={user} />
          )}
          {p.walletAddress && <OwnershipProof plantId={p.id} walletAddress={p.walletAddress} />}
          {user && (
            <PropagateForm
              key={`propagate-${p.id}`}
              parent={p}
              owner={acting ? { id: acting } : { id: user.id, name: user.name }}
            />
          )}
        </Tabs.Content>
        <Tabs.Content value="lineage" className="tab-panel">
          <Suspense fallback={<Loading />}>
            <LineageGraph plantId={p.id} onOpen={(id) => navigate(`/plants/${id}?tab=lineage`)} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="journey" className="tab-panel">
          <Journey plantId={p.id} />
          {owns && <RecordEventForm key={p.id} plantId={p.id} start={locationOf(p)} />}
        </Tabs.Content>
        <Tabs.Content value="environment" className="tab-panel">
          {user ? (
            <EnvironmentPanel plantId={p.id} canWrite={owns} />
          ) : (
            <div className="empty-state">
              <p>{S.environmentSignedOut}</p>
              <p>
                <Link className="button" to={`/signin?next=${encodeURIComponent(`/plants/${p.id}?tab=environment`)}`}>
                  {S.signIn}
                </Link>
              </p>
            </div>
          )}
        </Tabs.Content>
        <Tabs.Content value="certificate" className="tab-panel">
          <div className="grid-2">
            <Suspense fallback={<Loading />}>
              <CertificatePanel plantId={p.id} />
            </Suspense>
            {user && <QrPanel plantId={p.id} />}
          </div>
          <section className="card">
            <PrintLabels plantIds={[p.id]} />
          </section>
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
