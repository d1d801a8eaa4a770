import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Notice } from '../../components/status';
import { useSignOut } from '../../features/auth/api/session';
import { TOKEN_PERMISSIONS } from '../../features/auth/api/tokens';
import { LanguageSwitcher } from '../../features/auth/components/language-switcher';
import { TokensPanel } from '../../features/auth/components/tokens-panel';
import { AUTH } from '../../features/auth/strings';
import { RequireSession } from '../require-session';

export function Page() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (
    <RequireSession>
      {(user) => (
        <>
          <PageTitle lead={user.email ? AUTH.account.signedInAs(user.name, user.email) : user.name}>
            {AUTH.account.title}
          </PageTitle>
          {params.get('welcome') && <Notice>{AUTH.signUp.done}</Notice>}
          <p>{AUTH.account.role(user.role)}</p>
          {user.emailVerified === false && <p className="muted">{AUTH.account.unverified}</p>}
          <LanguageSwitcher id="account-language" label={AUTH.account.language} />
          <p>
            <button
              type="button"
              className="secondary"
              onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate('/') })}
            >
              {AUTH.account.signOut}
            </button>
          </p>
          <ErrorAlert error={signOut.error} />
          <TokensPanel permissions={TOKEN_PERMISSIONS} />
        </>
      )}
    </RequireSession>
  );
}
