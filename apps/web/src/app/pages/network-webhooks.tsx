import { PageTitle } from '../../components/page-title';
import { SectionNav } from '../../features/transparency/components/section-nav';
import { CreateWebhookForm, WebhookList } from '../../features/transparency/components/webhooks';
import { TRANSPARENCY } from '../../features/transparency/strings';
import { RequireSession } from '../require-session';

const S = TRANSPARENCY.webhooks;

/** The caller's webhooks: create, edit, rotate the secret, test, and the delivery log with redelivery. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={S.lead}>{S.title}</PageTitle>
          <SectionNav />
          <WebhookList />
          <CreateWebhookForm />
        </>
      )}
    </RequireSession>
  );
}
