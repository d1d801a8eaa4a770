import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { LoanList } from '../../features/loans/components/loan-list';
import { LOANS } from '../../features/loans/strings';
import { SEEDS } from '../../features/seeds/strings';
import { RequireSession } from '../require-session';

/** Seed loans: lent by whoever the tab acts as, or borrowed by the person, with the borrower's "Return seeds". */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={LOANS.list.lead}>{LOANS.list.title}</PageTitle>
          <p>
            <Link to="/seed-lots">{SEEDS.list.title}</Link>
          </p>
          <LoanList />
        </>
      )}
    </RequireSession>
  );
}
