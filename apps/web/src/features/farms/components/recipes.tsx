import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { type Recipe, useCreateRecipe, useRecipes } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.recipes;
const range = (r: { min: number; max: number }) => `${formatNumber(r.min, 2)}–${formatNumber(r.max, 2)}`;

/** Every recipe: its phases with their targets and DLI, its sources, its lineage and its outcomes. */
export function RecipeList() {
  const recipes = useRecipes();
  if (recipes.isPending) return <Loading />;
  if (recipes.error) return <ErrorAlert error={recipes.error} />;
  const all = recipes.data.items;
  const byId = new Map(all.map((r) => [r.id, r]));
  return (
    <>
      {all.map((r) => (
        <RecipeCard key={r.id} recipe={r} parent={r.parentId ? byId.get(r.parentId) : undefined} />
      ))}
    </>
  );
}

function RecipeCard({ recipe: r, parent }: { recipe: Recipe; parent: Recipe | undefined }) {
  const headingId = `recipe-${r.id}`;
  const o = r.outcomes;
  return (
    <article className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{r.name}</h2>
      <p className="muted">
        {r.crop} · {S.version(r.version)} · {S.cycle(r.cycleDays)} ·{' '}
        {r.parentId ? `${S.derivedFrom} ${parent?.name ?? r.parentId}` : S.shipped}
      </p>
      <ScrollTable label={`${r.name}: phases and targets`}>
        <table>
          <caption className="visually-hidden">{`${r.name}: phases and targets`}</caption>
          <thead>
            <tr>
              <th scope="col">{S.columns.phase}</th>
              <th scope="col">{S.columns.days}</th>
              <th scope="col">{S.columns.ppfd}</th>
              <th scope="col">{S.columns.hours}</th>
              <th scope="col">{S.columns.dli}</th>
              <th scope="col">{S.columns.temp}</th>
              <th scope="col">{S.columns.rh}</th>
              <th scope="col">{S.columns.co2}</th>
              <th scope="col">{S.columns.ec}</th>
              <th scope="col">{S.columns.ph}</th>
            </tr>
          </thead>
          <tbody>
            {r.phases.map((p) => (
              <tr key={p.phase}>
                <th scope="row">{p.phase}</th>
                <td>{p.days}</td>
                <td>{range(p.targets.ppfd)}</td>
                <td>{p.targets.photoperiodHours}</td>
                <td>{formatNumber(p.dli, 2)}</td>
                <td>
                  {p.targets.dayTemperatureC} / {p.targets.nightTemperatureC}
                </td>
                <td>{range(p.targets.humidityPct)}</td>
                <td>{range(p.targets.co2Ppm)}</td>
                <td>{range(p.targets.ecMsCm)}</td>
                <td>{range(p.targets.ph)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      {r.sources.length > 0 && (
        <>
          <h3>{S.sources}</h3>
          <ul>
            {r.sources.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </>
      )}
      <p className="hint">
        {S.outcomes(o.batches, o.harvested, o.successRate === null ? '–' : `${formatNumber(o.successRate * 100, 0)} %`)}
      </p>
    </article>
  );
}

/** Derives a new version of a recipe: same crop and targets, the phases' days and the name of one's choosing. */
export function DeriveRecipeForm() {
  const recipes = useRecipes();
  const create = useCreateRecipe();
  const [parentId, setParentId] = useState('');
  const [name, setName] = useState('');
  const [days, setDays] = useState<Record<string, string>>({});
  const [source, setSource] = useState('');
  if (recipes.isPending) return <Loading />;
  if (recipes.error) return <ErrorAlert error={recipes.error} />;
  const parent = recipes.data.items.find((r) => r.id === parentId) ?? recipes.data.items[0];
  if (!parent) return null;
  const err = create.error;
  return (
    <form
      className="card form"
      aria-labelledby="derive-recipe"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(
          {
            parentId: parent.id,
            name,
            phases: parent.phases.map((p) => ({
              phase: p.phase,
              days: Number(days[p.phase] ?? p.days),
              targets: p.targets,
            })),
            sources: [...parent.sources, ...(source.trim() ? [source.trim()] : [])],
          },
          {
            onSuccess: () => {
              setName('');
              setDays({});
              setSource('');
            },
          },
        );
      }}
    >
      <h2 id="derive-recipe">{S.derive}</h2>
      <ErrorAlert error={err} />
      {create.data && <Notice>{S.created(create.data.name, create.data.version)}</Notice>}
      <SelectField
        label={S.parent}
        name="parentId"
        value={parent.id}
        onChange={(v) => {
          setParentId(v);
          setDays({});
        }}
        options={recipes.data.items.map((r) => ({ value: r.id, label: `${r.name} (${S.version(r.version)})` }))}
        error={errorFor(err, 'parentId')}
      />
      <Field
        label={S.name}
        name="name"
        required
        maxLength={200}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errorFor(err, 'name')}
      />
      <div className="row">
        {parent.phases.map((p, i) => (
          <Field
            key={`${parent.id}-${p.phase}`}
            label={S.days(p.phase)}
            name={`days-${p.phase}`}
            type="number"
            min={1}
            max={365}
            required
            value={days[p.phase] ?? String(p.days)}
            onChange={(e) => setDays({ ...days, [p.phase]: e.target.value })}
            error={errorFor(err, `phases.${i}.days`)}
          />
        ))}
      </div>
      <Field
        label={S.source}
        name="source"
        maxLength={500}
        value={source}
        onChange={(e) => setSource(e.target.value)}
        error={errorFor(err, 'sources')}
      />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? S.busy : S.submit}
      </button>
    </form>
  );
}
