import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { SignUpForm } from '../../features/auth/components/sign-up-form';
import { AUTH } from '../../features/auth/strings';

export function Page() {
  const navigate = useNavigate();
  return (
    <div className="narrow">
      <PageTitle lead={AUTH.signUp.lead}>{AUTH.signUp.title}</PageTitle>
      <SignUpForm onSignedUp={() => navigate('/account?welcome=1')} />
    </div>
  );
}
