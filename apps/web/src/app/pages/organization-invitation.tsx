import { Link, useLocation, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { InvitationAnswer } from '../../features/organizations/components/invitation-answer';
import { ORGS } from '../../features/organizations/strings';
import { WithSession } from '../require-session';

const S = ORGS.accept;

/** The page an invitation email opens: signed in, the invitation to answer; else sign in or sign up, then back. */
export function Page() {
  const [params] = useSearchParams();
  const location = useLocation();
  const next = encodeURIComponent(`${location.pathname}${location.search}`);
  return (
    <div className="narrow">
      <PageTitle>{S.title}</PageTitle>
      <WithSession>
        {(user) =>
          user ? (
            <InvitationAnswer token={params.get('token')} />
          ) : (
            <>
              <p>{S.signInFirst}</p>
              <p className="actions">
                <Link to={`/signin?next=${next}`}>{S.signIn}</Link>
                <Link to={`/signup?next=${next}`}>{S.signUp}</Link>
              </p>
            </>
          )
        }
      </WithSession>
    </div>
  );
}
