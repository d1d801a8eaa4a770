import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { AUTH } from '../../features/auth/strings';
import { safeNext } from '../require-session';

export function Page() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  return (
    <div className="narrow">
      <PageTitle lead={AUTH.signIn.lead}>{AUTH.signIn.title}</PageTitle>
      <SignInForm returnTo={next} onSignedIn={() => navigate(next)} />
    </div>
  );
}
