import { PageTitle } from '../../components/page-title';
import { PreferencesForm } from '../../features/notifications/components/preferences-form';
import { PushPanel } from '../../features/notifications/components/push-panel';
import { NOTIFICATIONS_TEXT } from '../../features/notifications/strings';
import { RequireSession } from '../require-session';

const S = NOTIFICATIONS_TEXT.preferences;

/** Notification preferences per type and channel, and Web Push for this browser. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={S.lead}>{S.title}</PageTitle>
          <PreferencesForm />
          <PushPanel />
        </>
      )}
    </RequireSession>
  );
}
