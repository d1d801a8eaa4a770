import { CATEGORIES, type Category, keyOf, readableValue, valueAt } from '../lib/fields';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.page;

/** The current value of each category, with units; categories never recorded say so. */
export function CurrentEnvironment({ current }: { current: Partial<Record<Category, unknown>> }) {
  const recorded = CATEGORIES.filter((c) => current[c.key] !== undefined);
  return (
    <section className="card" aria-labelledby="current-environment-heading">
      <h2 id="current-environment-heading">{S.current}</h2>
      <p className="muted">{S.currentLead}</p>
      {recorded.length === 0 ? (
        <p>{S.nothing}</p>
      ) : (
        <div className="env-categories">
          {CATEGORIES.map((c) => {
            const rows = c.fields
              .map((f) => ({ f, text: readableValue(c.key, f, valueAt(current[c.key], f.path)) }))
              .filter((r) => r.text !== '');
            return (
              <div key={c.key}>
                <h3>{c.title}</h3>
                {rows.length === 0 ? (
                  <p className="muted">{S.notRecorded}</p>
                ) : (
                  <dl className="facts">
                    {rows.map(({ f, text }) => (
                      <div key={keyOf(f)} className="fact-row">
                        <dt>{f.label}</dt>
                        <dd>
                          {text}
                          {f.unit && f.kind === 'number' ? ` ${f.unit}` : ''}
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
