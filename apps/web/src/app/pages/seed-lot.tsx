import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Loading } from '../../components/status';
import { LendSeedsForm } from '../../features/loans/components/lend-seeds-form';
import { useSeedLot } from '../../features/seeds/api/seed-lots';
import {
  DiscardSeedLot,
  GerminationTestForm,
  GerminationTests,
  SeedLotFacts,
  SeedLotViability,
} from '../../features/seeds/components/seed-lot-details';
import { lotName } from '../../features/seeds/components/seed-lot-list';
import { SEEDS } from '../../features/seeds/strings';

/**
 * A seed lot: to anyone its public fields (crop, variety, harvest, holder, parents); to its holder its quantity,
 * storage, expected viability, germination tests and the forms to add a test or discard the lot.
 */
export function Page() {
  const { seedLotId = '' } = useParams();
  const lot = useSeedLot(seedLotId);
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
  return (
    <>
      <PageTitle lead={`${SEEDS.form.year}: ${l.harvestYear}`}>{lotName(l)}</PageTitle>
      <div className="stack">
        <SeedLotFacts lot={l} />
        {holder && l.viability && <SeedLotViability viability={l.viability} />}
        {holder && <GerminationTests seedLotId={l.id} />}
        {holder && !l.discardedAt && <GerminationTestForm seedLotId={l.id} />}
        {holder && !l.discardedAt && <LendSeedsForm lot={l} />}
        {holder && !l.discardedAt && <DiscardSeedLot seedLotId={l.id} />}
      </div>
    </>
  );
}
