import { useState } from 'react';
import { Link } from 'react-router';
import { PhotoFrame } from '../../../components/photo';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { PrintLabels } from '../../transparency/components/print-labels';
import { useOwnedPlants } from '../api/plants';
import { PLANTS } from '../strings';
import { placeOf } from './plant-facts';

const S = PLANTS.mine;

export function OwnedPlants({ ownerId }: { ownerId: string }) {
  const [page, setPage] = useState(1);
  const owned = useOwnedPlants(ownerId, page);
  // The plants chosen for labels, kept across pages, in the order they were chosen.
  const [chosen, setChosen] = useState<string[]>([]);
  if (owned.isPending) return <Loading />;
  if (owned.error) return <ErrorAlert error={owned.error} />;
  const { items, pagination } = owned.data;
  const toggle = (id: string, on: boolean) =>
    setChosen((now) => (on ? (now.includes(id) ? now : [...now, id]) : now.filter((x) => x !== id)));
  const allHere = items.length > 0 && items.every((p) => chosen.includes(p.id));
  if (items.length === 0) {
    return (
      <p>
        {S.none} <Link to="/plants/new">{S.register}</Link>
      </p>
    );
  }
  return (
    <>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label={S.labels.all}
                  checked={allHere}
                  onChange={(e) => {
                    for (const p of items) toggle(p.id, e.target.checked);
                  }}
                />
              </th>
              <th scope="col">{S.columns.name}</th>
              <th scope="col">{S.columns.generation}</th>
              <th scope="col">{S.columns.place}</th>
              <th scope="col">{S.columns.registered}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => (
              <tr key={p.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={S.labels.one(p.commonName)}
                    checked={chosen.includes(p.id)}
                    onChange={(e) => toggle(p.id, e.target.checked)}
                  />
                </td>
                <td>
                  <span className="photo-row">
                    <PhotoFrame photo={p.coverPhoto} />
                    <span>
                      <Link to={`/plants/${p.id}`}>{p.commonName}</Link>
                      {p.propagationType && <span className="muted"> ({p.propagationType})</span>}
                    </span>
                  </span>
                </td>
                <td>{p.generation}</td>
                <td>{placeOf(p)}</td>
                <td>{formatDateTime(p.registeredAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pagination.totalPages > 1 && (
        <nav className="pager" aria-label={PLANTS.mine.pages}>
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
      <section className="card">
        <PrintLabels plantIds={chosen} />
        {chosen.length > 0 && (
          <p>
            {S.labels.chosen(chosen.length)}{' '}
            <button type="button" className="secondary" onClick={() => setChosen([])}>
              {S.labels.clear}
            </button>
          </p>
        )}
      </section>
    </>
  );
}
