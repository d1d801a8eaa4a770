import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { useFarmBatches, useZones } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.batches;

/** A farm's batches, newest first, with their state; each opens its page. */
export function BatchList({ farmId }: { farmId: string }) {
  const [page, setPage] = useState(1);
  const batches = useFarmBatches(farmId, page);
  const zones = useZones(farmId);
  if (batches.isPending) return <Loading />;
  if (batches.error) return <ErrorAlert error={batches.error} />;
  const { items, pagination } = batches.data;
  if (items.length === 0) return <p>{S.none}</p>;
  const zoneName = (id: string) => zones.data?.find((z) => z.id === id)?.name ?? id;
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{S.title}</caption>
          <thead>
            <tr>
              <th scope="col">{S.columns.batch}</th>
              <th scope="col">{S.columns.zone}</th>
              <th scope="col">{S.columns.state}</th>
              <th scope="col">{S.columns.started}</th>
              <th scope="col">{S.columns.harvest}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((b) => (
              <tr key={b.id}>
                <td>
                  <Link to={`/vertical-farm/batch/${b.id}`}>
                    {b.crop} ‘{b.variety}’
                  </Link>
                </td>
                <td>{zoneName(b.zoneId)}</td>
                <td>
                  <span className={b.state === 'failed' ? 'badge bad' : 'badge'}>{FARMS.states[b.state]}</span>
                </td>
                <td>{formatDateTime(b.startedAt)}</td>
                <td>{formatDateTime(b.harvest?.harvestedAt ?? b.expectedHarvestAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pagination.totalPages > 1 && (
        <nav className="pager" aria-label={FARMS.batchPages}>
          <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {S.previous}
          </button>
          <span>{S.page(pagination.page, pagination.totalPages)}</span>
          <button
            type="button"
            className="secondary"
            disabled={page >= pagination.totalPages}
            onClick={() => setPage(page + 1)}
          >
            {S.next}
          </button>
        </nav>
      )}
    </>
  );
}
