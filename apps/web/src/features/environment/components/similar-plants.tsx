import { Link } from 'react-router';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import { usePlantNames, useSimilarPlants } from '../api/environment';
import { CATEGORIES } from '../lib/fields';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.similar;
/** A category as a sentence names it; an unknown one as the API wrote it. */
const inText = (key: string) => CATEGORIES.find((c) => c.key === key)?.inText ?? key;

/** The plants growing in the most similar conditions, each with a link to compare it with this one. */
export function SimilarPlants({ plantId }: { plantId: string }) {
  const similar = useSimilarPlants(plantId);
  const names = usePlantNames(similar.data?.items.map((p) => p.plantId) ?? []);
  return (
    <section className="card" aria-labelledby="similar-heading">
      <h2 id="similar-heading">{S.title}</h2>
      {similar.isPending ? (
        <Loading />
      ) : similar.error ? (
        <ErrorAlert error={similar.error} />
      ) : (
        <>
          <p className="muted">{S.lead(similar.data.compared)}</p>
          {similar.data.items.length === 0 ? (
            <p>{S.none}</p>
          ) : (
            <ol className="results similar-list">
              {similar.data.items.map((p) => {
                const name = names[p.plantId] ?? p.plantId;
                return (
                  <li key={p.plantId}>
                    <div>
                      <Link to={`/plants/${p.plantId}`}>{name}</Link>
                      {p.species && <span className="muted"> · {p.species}</span>}
                      <div>
                        <strong>{S.similarityOf(formatNumber(p.similarity, 1))}</strong>{' '}
                        <span className="muted">
                          {S.shared}: {p.sharedCategories.map(inText).join(', ')}
                        </span>
                      </div>
                    </div>
                    <Link
                      className="button secondary small"
                      to={`/environment/compare?a=${plantId}&b=${p.plantId}`}
                      aria-label={S.compareWith(name)}
                    >
                      {S.compare}
                    </Link>
                  </li>
                );
              })}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
