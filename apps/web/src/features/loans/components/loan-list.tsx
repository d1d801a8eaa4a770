import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { lotName, quantityText } from '../../seeds/components/seed-lot-list';
import {
  type LOAN_SEASONS,
  LOAN_STATUSES,
  type LoanFilter,
  type LoanRole,
  type LoanStatus,
  type SeedLoan,
  useLoans,
} from '../api/loans';
import { LOANS } from '../strings';
import { ReturnSeedsForm } from './return-seeds-form';

const S = LOANS.list;

/** A due season in words, e.g. "Autumn (September–November) 2027". */
export function dueText(dueSeason: string): string {
  const [year, season] = dueSeason.split('-') as [string, (typeof LOAN_SEASONS)[number]];
  return `${LOANS.season(season)} ${year}`;
}

/**
 * The loans lent by whoever the tab acts as, or borrowed by the person, filtered by status (open, overdue,
 * returned); a borrowed loan still out has a "Return seeds" button that opens its form below the table.
 */
export function LoanList() {
  const [filter, setFilter] = useState<LoanFilter>({ role: 'lender', status: '', page: 1 });
  const [returning, setReturning] = useState<SeedLoan | null>(null);
  const loans = useLoans(filter);
  const borrowed = filter.role === 'borrower';
  return (
    <div className="stack">
      <div className="filters seed-filters">
        <SelectField
          label={S.sides}
          name="role"
          value={filter.role}
          onChange={(role) => {
            setFilter({ ...filter, role: role as LoanRole, page: 1 });
            setReturning(null);
          }}
          options={[
            { value: 'lender', label: S.lent },
            { value: 'borrower', label: S.borrowed },
          ]}
        />
        <SelectField
          label={S.status}
          name="status"
          value={filter.status}
          onChange={(status) => setFilter({ ...filter, status: status as LoanStatus | '', page: 1 })}
          options={[{ value: '', label: S.all }, ...LOAN_STATUSES.map((s) => ({ value: s, label: LOANS.status(s) }))]}
        />
      </div>
      {loans.isPending ? (
        <Loading />
      ) : loans.error ? (
        <ErrorAlert error={loans.error} />
      ) : loans.data.items.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          <ScrollTable label={S.tableLabel}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{S.columns.seed}</th>
                  <th scope="col">{borrowed ? S.columns.lender : S.columns.borrower}</th>
                  <th scope="col">{S.columns.quantity}</th>
                  <th scope="col">{S.columns.due}</th>
                  <th scope="col">{S.columns.status}</th>
                  {borrowed && <th scope="col">{LOANS.returns.title}</th>}
                </tr>
              </thead>
              <tbody>
                {loans.data.items.map((loan) => (
                  <tr key={loan.id}>
                    <td>
                      <Link to={`/seed-lots/${loan.seedLotId}`}>{lotName(loan)}</Link>
                      {loan.returnLotId && (
                        <>
                          {' → '}
                          <Link to={`/seed-lots/${loan.returnLotId}`}>{LOANS.returns.newLot}</Link>
                        </>
                      )}
                    </td>
                    <td>{borrowed ? loan.lender.name : loan.borrower.name}</td>
                    <td>{quantityText(loan.quantity)}</td>
                    <td>{dueText(loan.dueSeason)}</td>
                    <td>
                      <span className={loan.status === 'overdue' ? 'badge warn' : 'badge'}>
                        {LOANS.status(loan.status)}
                      </span>
                    </td>
                    {borrowed && (
                      <td>
                        {loan.status !== 'returned' && (
                          <button type="button" className="secondary" onClick={() => setReturning(loan)}>
                            {S.returnThis(lotName(loan))}
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <Pager
            page={filter.page}
            totalPages={loans.data.pagination.totalPages}
            onPage={(page) => setFilter({ ...filter, page })}
            label={S.pager}
          />
        </>
      )}
      {borrowed && returning && <ReturnSeedsForm key={returning.id} loan={returning} />}
    </div>
  );
}
