import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { CsvImport } from '../../features/seeds/components/csv-import';
import { SEEDS } from '../../features/seeds/strings';
import { RequireSession } from '../require-session';

/** The import of seed lots or plants from a CSV file, with its dry-run report. */
export function Page() {
  const [params] = useSearchParams();
  const kind = params.get('kind') === 'plants' ? 'plants' : 'seed-lots';
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={SEEDS.csv.lead}>{SEEDS.csv.title}</PageTitle>
          <CsvImport initialKind={kind} />
        </>
      )}
    </RequireSession>
  );
}
