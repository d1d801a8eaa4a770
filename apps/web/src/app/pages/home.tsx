import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useSession } from '../../features/auth/api/session';
import { useRecentPlants } from '../../features/plants/api/plants';
import { NetworkCounts } from '../../features/plants/components/network-counts';
import { RECENT_PLANTS, RecentPlants } from '../../features/plants/components/recent-plants';
import { useLiveRefresh } from '../../lib/live';

const S = {
  title: 'Trace your plants',
  lead: 'Rootline records plants, their offspring and their journeys on an open ledger that anyone can check.',
  start: 'Ways to start',
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
  discover: 'Discover plants',
  signUp: 'Create an account',
} as const;

/**
 * The landing page: what Rootline is, the network as it is now (its counts, kept live from the `network` room for
 * people signed in, and its newest plants on cards and a map), and the ways to start.
 */
export function Page() {
  const session = useSession();
  const signedIn = Boolean(session.data);
  // The ways to start come with the newest plants, not before them: they would be pushed down as the cards arrive.
  const recentPending = useRecentPlants(RECENT_PLANTS).isPending;
  useLiveRefresh(signedIn ? 'network' : null, [
    ['plants', 'network'],
    ['plants', 'recent'],
  ]);
  return (
    <>
      <div className="landing-hero">
        <PageTitle lead={S.lead}>{S.title}</PageTitle>
        <p className="actions">
          {signedIn ? (
            <>
              <Link className="button" to="/plants/new">
                {S.signedIn}
              </Link>
              <Link className="button secondary" to="/plants/mine">
                {S.mine}
              </Link>
            </>
          ) : (
            <>
              <Link className="button" to="/discover">
                {S.discover}
              </Link>
              <Link className="button secondary" to="/signup">
                {S.signUp}
              </Link>
            </>
          )}
        </p>
      </div>
      <NetworkCounts />
      <RecentPlants signedIn={signedIn} />
      {!signedIn && !recentPending && (
        <section aria-labelledby="start-heading" className="landing-section">
          <h2 id="start-heading">{S.start}</h2>
          <ul className="cards">
            {S.cards.map((c) => (
              <li key={c.to} className="card">
                <h3>
                  <Link to={c.to}>{c.title}</Link>
                </h3>
                <p>{c.text}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
