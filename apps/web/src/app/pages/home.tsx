import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useSession } from '../../features/auth/api/session';

const S = {
  title: 'Trace your plants',
  lead: 'Rootline records plants, their offspring and their journeys on an open ledger that anyone can check.',
  cards: [
    {
      to: '/plants/register-anonymous',
      title: 'Register anonymously',
      text: 'No account, no email: your key is made in your browser and never leaves it.',
    },
    { to: '/discover', title: 'Discover plants', text: 'Find plants near you on the map, or search by name or place.' },
    {
      to: '/signup',
      title: 'Grow with an account',
      text: 'Register plants, propagate them and record their journeys.',
    },
  ],
  signedIn: 'Register a plant',
  mine: 'My plants',
} as const;

export function Page() {
  const session = useSession();
  return (
    <>
      <PageTitle lead={S.lead}>{S.title}</PageTitle>
      {session.data && (
        <p className="actions">
          <Link className="button" to="/plants/new">
            {S.signedIn}
          </Link>
          <Link className="button secondary" to="/plants/mine">
            {S.mine}
          </Link>
        </p>
      )}
      <ul className="cards">
        {S.cards.map((c) => (
          <li key={c.to} className="card">
            <h2>
              <Link to={c.to}>{c.title}</Link>
            </h2>
            <p>{c.text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
