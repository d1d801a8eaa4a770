import { PageTitle } from '../../components/page-title';
import { ForgotPasswordForm } from '../../features/auth/components/email-links';
import { AUTH } from '../../features/auth/strings';

export function Page() {
  return (
    <div className="narrow">
      <PageTitle lead={AUTH.forgot.lead}>{AUTH.forgot.title}</PageTitle>
      <ForgotPasswordForm />
    </div>
  );
}
