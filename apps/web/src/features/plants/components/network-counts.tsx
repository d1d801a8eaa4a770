import { ErrorAlert } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import { useNetworkStats } from '../api/plants';

const S = {
  title: 'The network now',
  plants: 'Plants',
  growers: 'Active growers',
  growersHint: 'in the last 90 days',
  countries: 'Countries',
  blocks: 'Ledger blocks',
} as const;

const count = (n: number | undefined) => (n === undefined ? '–' : formatNumber(n, 0));

/** The network's live counts: plants, growers, countries and the ledger's length. */
export function NetworkCounts() {
  const stats = useNetworkStats();
  return (
    <section className="card" aria-labelledby="network-counts-heading">
      <h2 id="network-counts-heading">{S.title}</h2>
      {stats.error ? (
        <ErrorAlert error={stats.error} />
      ) : (
        // While the counts come, the same figures hold their place with a dash, so nothing below them moves.
        <dl className="figures" aria-live={stats.data ? 'polite' : undefined} aria-busy={stats.isPending}>
          <div>
            <dt>{S.plants}</dt>
            <dd>{count(stats.data?.totalPlants)}</dd>
          </div>
          <div>
            <dt>{S.growers}</dt>
            <dd>{count(stats.data?.activeGrowers)}</dd>
            <dd className="hint">{S.growersHint}</dd>
          </div>
          <div>
            <dt>{S.countries}</dt>
            <dd>{count(stats.data?.countriesRepresented)}</dd>
          </div>
          <div>
            <dt>{S.blocks}</dt>
            <dd>{count(stats.data?.chainLength)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
