import { Navigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Loading } from '../../components/status';
import { useOutboxAccount } from '../../features/outbox/api/use-outbox';
import { OutboxList } from '../../features/outbox/components/outbox-list';
import { OUTBOX } from '../../features/outbox/strings';

/**
 * The outbox: the signed-in account's writes kept on this device. It opens without the network (the last account
 * signed in on this device, while the session cannot be checked); offline, its code comes from the worker's precache.
 */
export function Page() {
  const { account, confirmed, signedOut } = useOutboxAccount();
  if (signedOut) return <Navigate to={`/signin?next=${encodeURIComponent('/outbox')}`} replace />;
  if (!account) return <Loading />;
  return (
    <>
      <PageTitle lead={OUTBOX.lead}>{OUTBOX.title}</PageTitle>
      <OutboxList account={account} canSend={confirmed} />
    </>
  );
}
