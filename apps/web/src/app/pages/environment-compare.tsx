import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { useComparison } from '../../features/environment/api/environment';
import { CompareForm } from '../../features/environment/components/compare-form';
import { Comparison } from '../../features/environment/components/comparison';
import { EnvironmentNav } from '../../features/environment/components/environment-nav';
import { ENVIRONMENT } from '../../features/environment/strings';
import { RequireSession } from '../require-session';

/** Two plants' environments side by side; the plants are in the address (?a=…&b=…), so a comparison can be shared. */
export function Page() {
  const [params, setParams] = useSearchParams();
  const a = params.get('a') ?? '';
  const b = params.get('b') ?? '';
  // The same read as the comparison's (one request): its refusal is also shown beside the plant it concerns.
  const comparison = useComparison(a, b);
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={ENVIRONMENT.compare.lead}>{ENVIRONMENT.compare.title}</PageTitle>
          <EnvironmentNav />
          <CompareForm
            key={`${a}-${b}`}
            plantA={a}
            plantB={b}
            onCompare={(x, y) => setParams({ a: x, b: y })}
            error={comparison.error}
          />
          {a && b && <Comparison plantA={a} plantB={b} />}
        </>
      )}
    </RequireSession>
  );
}
