import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Loading } from '../../components/status';
import { useSession } from '../../features/auth/api/session';
import { LendSeedsForm } from '../../features/loans/components/lend-seeds-form';
import { useMyOrganizations } from '../../features/organizations/api/organizations';
import { useSeedLot } from '../../features/seeds/api/seed-lots';
import { HandSeedForm, SeedHandoffs } from '../../features/seeds/components/seed-handoffs';
import {
  DiscardSeedLot,
  GerminationTestForm,
  GerminationTests,
  SeedLotFacts,
  SeedLotViability,
} from '../../features/seeds/components/seed-lot-details';
import { lotName } from '../../features/seeds/components/seed-lot-list';
import { SEEDS } from '../../features/seeds/strings';
import { OwnershipHistory } from '../../features/transfers/components/ownership-history';
import { TransferForm } from '../../features/transfers/components/transfer-form';
import { usePeople } from '../../hooks/use-people';
import { useActingAs } from '../../lib/acting-as';

/**
 * A seed lot: to anyone its public fields (crop, variety, harvest, holder, parents) and its owners; to its holder its
 * quantity, storage, expected viability, germination tests and the forms to add a test, transfer or discard the lot.
 */
export function Page() {
  const { seedLotId = '' } = useParams();
  const lot = useSeedLot(seedLotId);
  const session = useSession();
  const user = session.data ?? null;
  const acting = useActingAs();
  // The role acted with decides who may transfer: asked only of a person signed in and acting for an organization.
  const mine = useMyOrganizations(user !== null && Boolean(acting));
  const { nameOf } = usePeople([lot.data?.ownerId]);
  if (lot.isPending) return <Loading />;
  if (!lot.data) {
    return (
      <>
        <PageTitle>{SEEDS.list.title}</PageTitle>
        <div className="alert alert-error" role="alert">
          {SEEDS.lot.notFound}
        </div>
      </>
    );
  }
  const l = lot.data;
  const holder = l.access === 'holder';
  // Transferring is the holder's act: the person acting alone, or an owner or manager acting for the organization.
  const actingRole = acting ? mine.data?.find((o) => o.id === acting)?.role : undefined;
  const mayTransfer =
    user !== null &&
    (l.quantity?.amount ?? 0) > 0 &&
    !l.discardedAt &&
    ((!acting && user.id === l.ownerId) ||
      (acting === l.ownerId && (actingRole === 'owner' || actingRole === 'manager')));
  return (
    <>
      <PageTitle lead={`${SEEDS.form.year}: ${l.harvestYear}`}>{lotName(l)}</PageTitle>
      <div className="stack">
        <SeedLotFacts lot={l} />
        {holder && l.viability && <SeedLotViability viability={l.viability} />}
        {holder && <GerminationTests seedLotId={l.id} />}
        {holder && !l.discardedAt && <GerminationTestForm seedLotId={l.id} />}
        <OwnershipHistory subjectType="seed-lot" subjectId={l.id} ownerName={nameOf(l.ownerId) ?? l.ownerId} />
        {user && mayTransfer && (
          <TransferForm
            key={`transfer-${l.id}`}
            subjectType="seed-lot"
            subjectId={l.id}
            ownerId={l.ownerId}
            user={user}
          />
        )}
        {holder && !l.discardedAt && <LendSeedsForm lot={l} />}
        {holder && <SeedHandoffs seedLotId={l.id} />}
        {holder && !l.discardedAt && (l.quantity?.amount ?? 0) > 0 && <HandSeedForm lot={l} />}
        {holder && !l.discardedAt && <DiscardSeedLot seedLotId={l.id} />}
      </div>
    </>
  );
}
