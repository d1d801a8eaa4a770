import { useState } from 'react';
import { Link } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { useToast } from '../../../components/toaster';
import { usePeople } from '../../../hooks/use-people';
import { currentLanguage } from '../../../i18n';
import { errorFor } from '../../../lib/errors';
import { formatDateTime, formatNumber, shortId } from '../../../lib/format';
import {
  GERMINATION_METHODS,
  type GerminationMethod,
  type SeedLot,
  useDiscardSeedLot,
  useGerminationTests,
  useRecordTest,
} from '../api/seed-lots';
import { SEEDS } from '../strings';
import { percent, quantityText } from './seed-lot-list';

const L = SEEDS.lot;
const T = SEEDS.tests;

/** A day (YYYY-MM-DD) in the reader's language. */
function formatDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(currentLanguage(), { dateStyle: 'medium', timeZone: 'UTC' });
}

function storageText(storage: NonNullable<SeedLot['storage']>): string {
  return [
    storage.place,
    storage.temperatureC === undefined ? undefined : `${formatNumber(storage.temperatureC)} °C`,
    storage.humidityPct === undefined ? undefined : `${formatNumber(storage.humidityPct)} %`,
    storage.container,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** What the lot is: crop, variety, harvest, who holds it, the plants it was saved from, and, to its holder, the rest. */
export function SeedLotFacts({ lot }: { lot: SeedLot }) {
  const { nameOf } = usePeople([lot.ownerId]);
  return (
    <section className="card" aria-labelledby="seed-lot-facts">
      <h2 id="seed-lot-facts">{L.facts}</h2>
      {lot.discardedAt && (
        <p className="alert alert-info" role="note">
          {L.discarded(formatDateTime(lot.discardedAt))}
        </p>
      )}
      <dl className="facts">
        <dt>{SEEDS.form.crop}</dt>
        <dd>{lot.crop}</dd>
        {lot.variety && (
          <>
            <dt>{SEEDS.form.variety}</dt>
            <dd>{lot.variety}</dd>
          </>
        )}
        <dt>{SEEDS.form.year}</dt>
        <dd>{lot.harvestYear}</dd>
        <dt>{L.owner}</dt>
        <dd>{nameOf(lot.ownerId) ?? lot.ownerId}</dd>
        {lot.receivedFrom && (
          <>
            <dt>{SEEDS.receivedFrom.label}</dt>
            <dd>
              <a href={`${lot.receivedFrom.url}/seed-lots/${lot.receivedFrom.seedLotId}`}>
                {SEEDS.receivedFrom.text(lot.receivedFrom.seedLotId, lot.receivedFrom.peer)}
              </a>
            </dd>
          </>
        )}
        <dt>{L.parents}</dt>
        <dd>
          {lot.parentPlantIds.length === 0 ? (
            L.noParents
          ) : (
            <ul className="plain-list">
              {(lot.parents ?? lot.parentPlantIds.map((id) => ({ id, commonName: id, scientificName: null }))).map(
                (p) => (
                  <li key={p.id}>
                    <Link to={`/plants/${p.id}`}>{p.commonName}</Link>
                    {p.scientificName && (
                      <>
                        {' '}
                        <i>{p.scientificName}</i>
                      </>
                    )}{' '}
                    <span className="muted" title={p.id}>
                      {shortId(p.id)}
                    </span>
                  </li>
                ),
              )}
            </ul>
          )}
        </dd>
        {lot.access === 'holder' && (
          <>
            <dt>{SEEDS.form.amount}</dt>
            <dd>{lot.quantity ? quantityText(lot.quantity) : '—'}</dd>
            <dt>{L.storage}</dt>
            <dd>{lot.storage ? storageText(lot.storage) : L.noStorage}</dd>
            {lot.notes && (
              <>
                <dt>{L.notes}</dt>
                <dd>{lot.notes}</dd>
              </>
            )}
          </>
        )}
      </dl>
      {lot.access === 'public' && <p className="hint">{L.publicOnly}</p>}
    </section>
  );
}

/** The lot's expected viability today, how it was found, and a warning when it is low. */
export function SeedLotViability({ viability }: { viability: NonNullable<SeedLot['viability']> }) {
  const last = viability.lastTest;
  return (
    <section className="card" aria-labelledby="seed-lot-viability">
      <h2 id="seed-lot-viability">{L.viability}</h2>
      {viability.expected === null ? (
        <p>{L.unknown}</p>
      ) : (
        <p className="viability-figure">{L.expected(percent(viability.expected))}</p>
      )}
      <p>
        {viability.basis === 'test' && last
          ? L.basisTest(formatDay(last.testedOn), percent(last.rate))
          : viability.basis === 'age' && viability.longevityYears !== null
            ? L.basisAge(formatNumber(viability.ageYears), formatNumber(viability.longevityYears))
            : L.basisNone}
      </p>
      {viability.low && (
        <p className="alert seed-warning" role="note">
          {L.lowWarning}
        </p>
      )}
      <p className="hint">{L.source}</p>
    </section>
  );
}

/** The lot's germination tests, latest first, a page at a time. */
export function GerminationTests({ seedLotId }: { seedLotId: string }) {
  const [page, setPage] = useState(1);
  const tests = useGerminationTests(seedLotId, page, true);
  return (
    <section className="card" aria-labelledby="seed-lot-tests">
      <h2 id="seed-lot-tests">{T.title}</h2>
      {tests.isPending ? (
        <Loading />
      ) : tests.error ? (
        <ErrorAlert error={tests.error} />
      ) : tests.data.items.length === 0 ? (
        <p>{T.none}</p>
      ) : (
        <>
          <ScrollTable label={T.tableLabel}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{T.columns.date}</th>
                  <th scope="col">{T.columns.sown}</th>
                  <th scope="col">{T.columns.germinated}</th>
                  <th scope="col">{T.columns.rate}</th>
                  <th scope="col">{T.columns.method}</th>
                </tr>
              </thead>
              <tbody>
                {tests.data.items.map((t) => (
                  <tr key={t.id}>
                    <td>{formatDay(t.testedOn)}</td>
                    <td>{t.seedsSown}</td>
                    <td>{t.germinated}</td>
                    <td>{percent(t.rate)}</td>
                    <td>{SEEDS.methods[t.method]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <Pager page={page} totalPages={tests.data.pagination.totalPages} onPage={setPage} label={T.pager} />
        </>
      )}
    </section>
  );
}

/** Records a germination test of the lot. */
export function GerminationTestForm({ seedLotId }: { seedLotId: string }) {
  const record = useRecordTest(seedLotId);
  const toast = useToast();
  const today = new Date().toISOString().slice(0, 10);
  const empty = {
    testedOn: today,
    seedsSown: '',
    germinated: '',
    method: 'paper-towel' as GerminationMethod,
    notes: '',
  };
  const [form, setForm] = useState(empty);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const err = (name: string) => errorFor(record.error, name);
  return (
    <form
      className="card stack"
      aria-labelledby="seed-test-form"
      onSubmit={(e) => {
        e.preventDefault();
        record.mutate(
          {
            testedOn: form.testedOn,
            seedsSown: Number(form.seedsSown),
            germinated: Number(form.germinated),
            method: form.method,
            ...(form.notes.trim() ? { notes: form.notes.trim() } : {}),
          },
          {
            onSuccess: (test) => {
              toast(T.recorded(percent(test.rate)));
              setForm(empty);
            },
          },
        );
      }}
    >
      <h2 id="seed-test-form">{T.add}</h2>
      <div className="seed-form-grid">
        <Field
          label={T.date}
          name="testedOn"
          type="date"
          required
          max={today}
          value={form.testedOn}
          onChange={set('testedOn')}
          error={err('testedOn')}
        />
        <Field
          label={T.sown}
          name="seedsSown"
          required
          inputMode="numeric"
          value={form.seedsSown}
          onChange={set('seedsSown')}
          error={err('seedsSown')}
        />
        <Field
          label={T.germinated}
          name="germinated"
          required
          inputMode="numeric"
          value={form.germinated}
          onChange={set('germinated')}
          error={err('germinated')}
        />
        <SelectField
          label={T.method}
          name="method"
          value={form.method}
          onChange={(method) => setForm({ ...form, method: method as GerminationMethod })}
          options={GERMINATION_METHODS.map((m) => ({ value: m, label: SEEDS.methods[m] }))}
        />
      </div>
      <div className="field">
        <label htmlFor="seed-test-notes">{T.notes}</label>
        <textarea id="seed-test-notes" rows={2} value={form.notes} onChange={set('notes')} />
      </div>
      <ErrorAlert error={record.error} />
      <div className="actions">
        <button type="submit" disabled={record.isPending}>
          {record.isPending ? T.busy : T.submit}
        </button>
      </div>
    </form>
  );
}

/** Discards the lot (its holder's managers); it stays readable. */
export function DiscardSeedLot({ seedLotId }: { seedLotId: string }) {
  const discard = useDiscardSeedLot(seedLotId);
  const toast = useToast();
  return (
    <div className="actions">
      <ErrorAlert error={discard.error} />
      <button
        type="button"
        className="secondary"
        disabled={discard.isPending}
        onClick={() => discard.mutate(undefined, { onSuccess: () => toast(L.discardedToast) })}
      >
        {L.discard}
      </button>
    </div>
  );
}
