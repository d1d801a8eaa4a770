import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useSession } from '../../features/auth/api/session';
import { UnsubscribeConfirm } from '../../features/notifications/components/unsubscribe';
import { NOTIFICATIONS_TEXT } from '../../features/notifications/strings';

const S = NOTIFICATIONS_TEXT.unsubscribe;

/** Where an email's unsubscribe link lands: no sign-in needed. */
export function Page() {
  const [params] = useSearchParams();
  const session = useSession();
  return (
    <>
      <PageTitle lead={S.lead}>{S.title}</PageTitle>
      <UnsubscribeConfirm token={params.get('token') ?? ''} signedIn={Boolean(session.data)} />
    </>
  );
}
