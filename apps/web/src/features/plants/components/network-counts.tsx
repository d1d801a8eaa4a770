import { ErrorAlert, Loading } from '../../../components/status';
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

/** The network's live counts: plants, growers, countries and the ledger's length. */
export function NetworkCounts() {
  const stats = useNetworkStats();
  return (
    <section className="card" aria-labelledby="network-counts-heading">
      <h2 id="network-counts-heading">{S.title}</h2>
      {stats.isPending ? (
        <Loading />
      ) : stats.error ? (
        <ErrorAlert error={stats.error} />
      ) : (
        <dl className="figures" aria-live="polite">
          <div>
            <dt>{S.plants}</dt>
            <dd>{formatNumber(stats.data.totalPlants, 0)}</dd>
          </div>
          <div>
            <dt>{S.growers}</dt>
            <dd>{formatNumber(stats.data.activeGrowers, 0)}</dd>
            <dd className="hint">{S.growersHint}</dd>
          </div>
          <div>
            <dt>{S.countries}</dt>
            <dd>{formatNumber(stats.data.countriesRepresented, 0)}</dd>
          </div>
          <div>
            <dt>{S.blocks}</dt>
            <dd>{formatNumber(stats.data.chainLength, 0)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
