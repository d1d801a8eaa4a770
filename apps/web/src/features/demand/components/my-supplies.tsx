import { useState } from 'react';
import { Pager } from '../../../components/pager';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import { type Supply, useMySupplies, useSupplyMatches } from '../api/demand';
import { DEMAND } from '../strings';
import { MatchTable } from './match-table';

const S = DEMAND.supply;
const day = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The caller's commitments, newest first, a page at a time, each with the households matched to it. */
export function MySupplies() {
  const [page, setPage] = useState(1);
  const supplies = useMySupplies(page);
  return (
    <section className="card" aria-labelledby="mine-title">
      <h2 id="mine-title">{S.mine}</h2>
      <p className="muted">{S.mineLead}</p>
      {supplies.isPending ? (
        <Loading />
      ) : supplies.error ? (
        <ErrorAlert error={supplies.error} />
      ) : supplies.data.items.length === 0 ? (
        <p>{S.noneYet}</p>
      ) : (
        <>
          <ul className="plain-list">
            {supplies.data.items.map((s) => (
              <li key={s.id}>
                <Commitment supply={s} />
              </li>
            ))}
          </ul>
          <Pager
            label={S.pages}
            page={supplies.data.pagination.page}
            totalPages={supplies.data.pagination.totalPages}
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}

function Commitment({ supply: s }: { supply: Supply }) {
  const unit = DEMAND.units[s.unit as keyof typeof DEMAND.units] ?? s.unit;
  const place = [s.location.city, s.location.country].filter(Boolean).join(', ');
  const title = S.commitment(s.crop, formatNumber(s.quantity, 2), unit);
  return (
    <article className="commitment" aria-labelledby={`supply-${s.id}`}>
      <h3 id={`supply-${s.id}`}>
        {title}
        {s.organic && <span className="badge"> {S.organicYes}</span>}
      </h3>
      <dl className="facts">
        <dt>{S.window}</dt>
        <dd>
          {day(s.window.from)} – {day(s.window.to)}
        </dd>
        <dt>{S.columns.price}</dt>
        <dd>{S.perUnit(formatNumber(s.price / 100, 2), s.currency, s.unit)}</dd>
        <dt>{S.where}</dt>
        <dd>{place || `${formatNumber(s.location.latitude, 4)}, ${formatNumber(s.location.longitude, 4)}`}</dd>
        <dt>{S.taken}</dt>
        <dd>{S.takenOf(formatNumber(s.matchedKg, 2), formatNumber(s.quantityKg, 2))}</dd>
      </dl>
      <SupplyMatches supplyId={s.id} caption={S.matchesOf(s.crop)} />
    </article>
  );
}

function SupplyMatches({ supplyId, caption }: { supplyId: string; caption: string }) {
  const matches = useSupplyMatches(supplyId);
  if (matches.isPending) return <Loading />;
  if (matches.error) return <ErrorAlert error={matches.error} />;
  const { items, pagination } = matches.data;
  if (items.length === 0) return <p className="muted">{S.noMatchYet}</p>;
  return (
    <>
      <MatchTable matches={items} caption={caption} />
      {pagination.total > items.length && <p className="muted">{S.shownOf(items.length, pagination.total)}</p>}
    </>
  );
}
