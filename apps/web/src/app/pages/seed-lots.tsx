import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { LOANS } from '../../features/loans/strings';
import { CsvActions } from '../../features/seeds/components/csv-export';
import { ReceiveSeedForm } from '../../features/seeds/components/seed-handoffs';
import { SeedLotForm } from '../../features/seeds/components/seed-lot-form';
import { SeedLotList } from '../../features/seeds/components/seed-lot-list';
import { SEEDS } from '../../features/seeds/strings';
import { RequireSession } from '../require-session';

/** The seed inventory of whoever the tab acts as: the list with its filters, and the form to add a lot. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={SEEDS.list.lead}>{SEEDS.list.title}</PageTitle>
          <p>
            <Link to="/loans">{LOANS.list.link}</Link>
          </p>
          <CsvActions kind="seed-lots" />
          <SeedLotList />
          <SeedLotForm />
          <ReceiveSeedForm />
        </>
      )}
    </RequireSession>
  );
}
