import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { CsvImport } from '../../features/seeds/components/csv-import';
import { ImportList } from '../../features/seeds/components/import-list';
import { SEEDS } from '../../features/seeds/strings';
import { RequireSession } from '../require-session';

/**
 * The import of seed lots or plants from a CSV file, with its dry-run report, and the earlier imports; the report
 * shown is the page's `job` (so each has an address of its own).
 */
export function Page() {
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind') === 'plants' ? 'plants' : 'seed-lots';
  const jobId = params.get('job');
  const withJob = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('job', id);
    else next.delete('job');
    return next;
  };
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={SEEDS.csv.lead}>{SEEDS.csv.title}</PageTitle>
          <CsvImport initialKind={kind} jobId={jobId} onJob={(id) => setParams(withJob(id))} />
          <ImportList reportHref={(job) => `?${withJob(job.id).toString()}`} />
        </>
      )}
    </RequireSession>
  );
}
