import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { SignUpForm } from '../../features/auth/components/sign-up-form';
import { AUTH } from '../../features/auth/strings';
import { safeNext } from '../require-session';

export function Page() {
  const navigate = useNavigate();
  // A page that sent the person here to sign up first (an invitation) is where they go back to.
  const next = useSearchParams()[0].get('next');
  return (
    <div className="narrow">
      <PageTitle lead={AUTH.signUp.lead}>{AUTH.signUp.title}</PageTitle>
      <SignUpForm onSignedUp={() => navigate(next ? safeNext(next) : '/account?welcome=1')} />
    </div>
  );
}
