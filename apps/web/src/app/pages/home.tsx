import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useSession } from '../../features/auth/api/session';
import { RECENT_PLANTS } from '../../features/plants/api/plant-queries';
import { useRecentPlants } from '../../features/plants/api/plants';
import { NetworkCounts } from '../../features/plants/components/network-counts';
import { RecentPlants } from '../../features/plants/components/recent-plants';
import { useLiveRefresh } from '../../lib/live';
import { HOME } from '../strings';

const S = HOME;

const CARDS = [
  { to: '/plants/register-anonymous', text: () => HOME.cards.anonymous },
  { to: '/discover', text: () => HOME.cards.discover },
  { to: '/signup', text: () => HOME.cards.signUp },
] as const;

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
            {CARDS.map(({ to, text }) => (
              <li key={to} className="card">
                <h3>
                  <Link to={to}>{text().title}</Link>
                </h3>
                <p>{text().text}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
