import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ResetPasswordForm } from '../../features/auth/components/email-links';
import { AUTH } from '../../features/auth/strings';

export function Page() {
  const [params] = useSearchParams();
  return (
    <div className="narrow">
      <PageTitle>{AUTH.reset.title}</PageTitle>
      <ResetPasswordForm token={params.get('token')} />
    </div>
  );
}
