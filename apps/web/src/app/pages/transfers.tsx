import { PageTitle } from '../../components/page-title';
import { TRANSFERS } from '../../features/plants/strings';
import { TransferList } from '../../features/transfers/components/transfer-list';
import { RequireSession } from '../require-session';

/** The transfers to and from the signed-in person, or the organization the tab acts for: answered here. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={TRANSFERS.lead}>{TRANSFERS.title}</PageTitle>
          <TransferList side="incoming" />
          <TransferList side="outgoing" />
        </>
      )}
    </RequireSession>
  );
}
