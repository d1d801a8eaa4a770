import { useState } from 'react';
import { Link } from 'react-router';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import { type SeedLot, type SeedLotFilter, useSeedLots } from '../api/seed-lots';
import { SEEDS } from '../strings';
import './seeds.css';

const S = SEEDS.list;

/** A share as a whole percentage in the reader's language, e.g. 0.862 → "86 %". */
export function percent(share: number): string {
  return `${formatNumber(share * 100, 0)} %`;
}

/** What a lot holds, e.g. "120 seeds". */
export function quantityText(q: NonNullable<SeedLot['quantity']>): string {
  return `${formatNumber(q.amount, 2)} ${SEEDS.units[q.unit]}`;
}

/** A lot's name in a list: crop and variety. */
export function lotName(lot: Pick<SeedLot, 'crop' | 'variety'>): string {
  return lot.variety ? `${lot.crop} ‘${lot.variety}’` : lot.crop;
}

/** The lots of whoever the tab acts as, with filters by crop, harvest year and low viability, a page at a time. */
export function SeedLotList() {
  const [draft, setDraft] = useState({ crop: '', harvestYear: '', lowOnly: false });
  const [filter, setFilter] = useState<SeedLotFilter>({ crop: '', harvestYear: '', lowOnly: false, page: 1 });
  const lots = useSeedLots(filter);
  return (
    <div className="stack">
      <form
        className="filters seed-filters"
        aria-label={S.filters}
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ ...draft, page: 1 });
        }}
      >
        <div className="field">
          <label htmlFor="seed-filter-crop">{S.crop}</label>
          <input
            id="seed-filter-crop"
            value={draft.crop}
            onChange={(e) => setDraft({ ...draft, crop: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="seed-filter-year">{S.year}</label>
          <input
            id="seed-filter-year"
            inputMode="numeric"
            value={draft.harvestYear}
            onChange={(e) => setDraft({ ...draft, harvestYear: e.target.value })}
          />
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.lowOnly}
            onChange={(e) => setDraft({ ...draft, lowOnly: e.target.checked })}
          />
          {S.lowOnly}
        </label>
        <div className="actions">
          <button type="submit">{S.apply}</button>
        </div>
      </form>
      {lots.isPending ? (
        <Loading />
      ) : lots.error ? (
        <ErrorAlert error={lots.error} />
      ) : lots.data.items.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          <p aria-live="polite">{S.found(lots.data.pagination.total)}</p>
          <ScrollTable label={S.tableLabel}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{S.columns.lot}</th>
                  <th scope="col">{S.columns.year}</th>
                  <th scope="col">{S.columns.quantity}</th>
                  <th scope="col">{S.columns.viability}</th>
                </tr>
              </thead>
              <tbody>
                {lots.data.items.map((lot) => (
                  <tr key={lot.id}>
                    <td>
                      <Link to={`/seed-lots/${lot.id}`}>{lotName(lot)}</Link>
                    </td>
                    <td>{lot.harvestYear}</td>
                    <td>{lot.quantity ? quantityText(lot.quantity) : '—'}</td>
                    <td>
                      {lot.viability?.expected == null ? '—' : percent(lot.viability.expected)}
                      {lot.viability?.low && (
                        <>
                          {' '}
                          <span className="badge warn">{S.low}</span>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <Pager
            page={lots.data.pagination.page}
            totalPages={lots.data.pagination.totalPages}
            onPage={(page) => setFilter({ ...filter, page })}
            label={S.pager}
          />
        </>
      )}
    </div>
  );
}
