import { Link } from 'react-router';
import { RecordIds } from '../../../components/record-ids';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type Batch, useFarm } from '../api/farms';
import { FARMS } from '../strings';
import { FailBatch } from './fail-batch';

const S = FARMS.batch;

/**
 * What a batch is and where it stands: state (with why, once failed), phase, dates, seed source, readings summary;
 * an open batch can be marked failed here.
 */
export function BatchFacts({ batch }: { batch: Batch }) {
  const seed = batch.seedSource;
  const r = batch.readings;
  const farm = useFarm(batch.farmId);
  return (
    <section className="card" aria-labelledby="batch-facts">
      <h2 id="batch-facts">{S.facts}</h2>
      <dl>
        <dt>{S.state}</dt>
        <dd>
          <span className={batch.state === 'failed' ? 'badge bad' : 'badge'}>{FARMS.states[batch.state]}</span>
        </dd>
        {batch.failureReason && (
          <>
            <dt>{S.failureReason}</dt>
            <dd>{batch.failureReason}</dd>
          </>
        )}
        {batch.phase && batch.daysInPhase !== null && (
          <>
            <dt>{S.phase}</dt>
            <dd>{S.daysInPhase(batch.phase, batch.daysInPhase)}</dd>
          </>
        )}
        <dt>{S.farm}</dt>
        <dd>
          <Link to={`/vertical-farm/${batch.farmId}`}>{farm.data?.name ?? S.thisFarm}</Link>
        </dd>
        <dt>{S.plants}</dt>
        <dd>{batch.plantCount}</dd>
        <dt>{S.started}</dt>
        <dd>{formatDateTime(batch.startedAt)}</dd>
        <dt>{S.expected}</dt>
        <dd>{formatDateTime(batch.expectedHarvestAt)}</dd>
        {batch.closedAt && (
          <>
            <dt>{S.closed}</dt>
            <dd>{formatDateTime(batch.closedAt)}</dd>
          </>
        )}
        <dt>{S.seed}</dt>
        <dd>
          {seed.type === 'plant' && seed.plantId ? (
            <Link to={`/plants/${seed.plantId}`}>{seed.plantName ?? S.aPlant}</Link>
          ) : (
            [seed.seedLot, seed.supplier].filter(Boolean).join(', ')
          )}
        </dd>
        <dt>{S.readings}</dt>
        <dd>
          {r.count === 0 ? S.noReadings : S.readingsSummary(r.count, `${formatNumber((r.compliance ?? 0) * 100, 0)} %`)}
        </dd>
      </dl>
      <RecordIds
        ids={[
          { label: S.ids.batch, value: batch.id },
          { label: S.ids.farm, value: batch.farmId },
          { label: S.ids.plant, value: seed.type === 'plant' ? seed.plantId : null },
        ]}
      />
      {batch.state !== 'harvested' && batch.state !== 'failed' && <FailBatch batch={batch} />}
    </section>
  );
}
