import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { VerifyEmail } from '../../features/auth/components/email-links';
import { AUTH } from '../../features/auth/strings';

export function Page() {
  const [params] = useSearchParams();
  return (
    <div className="narrow">
      <PageTitle>{AUTH.verify.title}</PageTitle>
      <VerifyEmail token={params.get('token')} />
    </div>
  );
}
