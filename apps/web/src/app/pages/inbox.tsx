import { PageTitle } from '../../components/page-title';
import { Inbox } from '../../features/notifications/components/inbox';
import { NOTIFICATIONS_TEXT } from '../../features/notifications/strings';
import { RequireSession } from '../require-session';

const S = NOTIFICATIONS_TEXT.inbox;

/** The person's notifications, live. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={S.lead}>{S.title}</PageTitle>
          <Inbox />
        </>
      )}
    </RequireSession>
  );
}
