import { PageTitle } from '../../components/page-title';
import { ComplianceReport, ExportPanel } from '../../features/transparency/components/exports';
import { SectionNav } from '../../features/transparency/components/section-nav';
import { TRANSPARENCY } from '../../features/transparency/strings';
import { RequireSession } from '../require-session';

const S = TRANSPARENCY.exports;

/** Exports of the public history, and the compliance report for an ADMIN. */
export function Page() {
  return (
    <RequireSession>
      {(user) => (
        <>
          <PageTitle lead={S.lead}>{S.title}</PageTitle>
          <SectionNav />
          <ExportPanel />
          {user.role === 'ADMIN' ? (
            <ComplianceReport />
          ) : (
            <section className="card" aria-labelledby="report-heading">
              <h2 id="report-heading">{S.report}</h2>
              <p>{S.adminOnly}</p>
            </section>
          )}
        </>
      )}
    </RequireSession>
  );
}
