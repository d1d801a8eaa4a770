import { Link } from 'react-router';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import { usePlantNames, useSimilarPlants } from '../api/environment';
import { CATEGORIES } from '../lib/fields';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.similar;
const TITLES = Object.fromEntries(CATEGORIES.map((c) => [c.key, c.title.toLowerCase()]));

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
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">{S.title}</caption>
                <thead>
                  <tr>
                    <th scope="col">{S.plant}</th>
                    <th scope="col">{S.similarity}</th>
                    <th scope="col">{S.shared}</th>
                    <th scope="col">
                      <span className="visually-hidden">{S.compare}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {similar.data.items.map((p) => {
                    const name = names[p.plantId] ?? p.plantId;
                    return (
                      <tr key={p.plantId}>
                        <th scope="row">
                          <Link to={`/plants/${p.plantId}`}>{name}</Link>
                          {p.species && <div className="muted">{p.species}</div>}
                        </th>
                        <td>{formatNumber(p.similarity, 1)} / 100</td>
                        <td>{p.sharedCategories.map((c) => TITLES[c] ?? c).join(', ')}</td>
                        <td>
                          <Link
                            className="button secondary small"
                            to={`/environment/compare?a=${plantId}&b=${p.plantId}`}
                            aria-label={S.compareWith(name)}
                          >
                            {S.compare}
                          </Link>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
