import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { outboxEditOf } from '../../outbox/api/outbox';
import { KeptNotice } from '../../outbox/components/kept-notice';
import { type RecordInput, useRecordEnvironment } from '../api/environment';
import {
  CATEGORIES,
  type Category,
  type CategoryForm,
  changed,
  type FieldSpec,
  fieldName,
  fromForm,
  keyOf,
  labelWithUnit,
  optionLabel,
  toForm,
} from '../lib/fields';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.edit;
type Current = Partial<Record<Category, unknown>>;

/** A stored time as a `datetime-local` value in the browser's time zone. */
function localInput(iso: unknown): string {
  if (typeof iso !== 'string' || Number.isNaN(Date.parse(iso))) return '';
  const d = new Date(iso);
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}

/**
 * The plant's environment as a form in its nine categories, filled with the current values (or, opened from a
 * refused outbox reading, with that reading's values where it has them). Saving adds one record with the categories
 * that changed; the API's refusals show next to the field they name.
 */
export function EnvironmentEditor({ plantId, current }: { plantId: string; current: Current }) {
  const edit = outboxEditOf(useLocation().state, 'reading');
  const navigate = useNavigate();
  const [forms, setForms] = useState<Record<string, CategoryForm>>(() =>
    Object.fromEntries(CATEGORIES.map((c) => [c.key, toForm(c, edit?.body[c.key] ?? current[c.key])])),
  );
  const [recordedAt, setRecordedAt] = useState(() => localInput(edit?.body.recordedAt));
  const [nothing, setNothing] = useState(false);
  const save = useRecordEnvironment(plantId, undefined, edit?.id);

  const set = (category: Category, key: string, value: string) =>
    setForms((all) => ({ ...all, [category]: { ...all[category], [key]: value } }));

  return (
    <form
      className="form"
      aria-labelledby="environment-edit-heading"
      onSubmit={(e) => {
        e.preventDefault();
        const record: Record<string, unknown> = {};
        for (const c of CATEGORIES) {
          const form = forms[c.key] ?? {};
          if (changed(c, form, current[c.key])) {
            record[c.key] = fromForm(c, form, current[c.key] as Record<string, unknown> | undefined);
          }
        }
        setNothing(Object.keys(record).length === 0);
        if (Object.keys(record).length === 0) return;
        if (recordedAt) record.recordedAt = new Date(recordedAt).toISOString();
        save.mutate(record as Omit<RecordInput, 'plantId'>, {
          // The refused item it was edited from is gone: the form is a plain one again.
          onSuccess: () => edit && navigate('.', { replace: true, state: null }),
        });
      }}
    >
      <h2 id="environment-edit-heading">{S.title}</h2>
      <p className="muted">{S.lead}</p>
      {CATEGORIES.map((c) => {
        const main = c.fields.filter((f) => !f.more);
        const more = c.fields.filter((f) => f.more);
        const render = (f: FieldSpec) => (
          <EnvironmentField
            key={keyOf(f)}
            category={c.key}
            field={f}
            value={forms[c.key]?.[keyOf(f)] ?? ''}
            onChange={(value) => set(c.key, keyOf(f), value)}
            error={errorFor(save.error, fieldName(c.key, f))}
          />
        );
        return (
          <fieldset key={c.key}>
            <legend>{c.title}</legend>
            <div className="env-grid">{main.map(render)}</div>
            {more.length > 0 && (
              <details>
                <summary>{S.more(c.inText)}</summary>
                <div className="env-grid">{more.map(render)}</div>
              </details>
            )}
          </fieldset>
        );
      })}
      <Field
        label={S.recordedAt}
        name="recordedAt"
        type="datetime-local"
        value={recordedAt}
        onChange={(e) => setRecordedAt(e.target.value)}
        error={errorFor(save.error, 'recordedAt')}
      />
      <ErrorAlert error={save.error} />
      {nothing && <p role="status">{S.nothingChanged}</p>}
      <KeptNotice result={save.data} />
      {save.data?.status === 'sent' && !save.isPending && (
        <Notice>
          {S.saved(
            CATEGORIES.filter((c) => c.key in (save.variables ?? {}))
              .map((c) => c.inText)
              .join(', '),
          )}
        </Notice>
      )}
      <p>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? S.busy : S.submit}
        </button>
      </p>
    </form>
  );
}

function EnvironmentField({
  category,
  field,
  value,
  onChange,
  error,
}: {
  category: Category;
  field: FieldSpec;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const name = fieldName(category, field);
  const label = labelWithUnit(field);
  if (field.kind === 'choice' || field.kind === 'yes-no') {
    const options =
      field.kind === 'yes-no'
        ? [
            { value: 'yes', label: S.yes },
            { value: 'no', label: S.no },
          ]
        : (field.options ?? []).map((o) => ({ value: o, label: optionLabel(category, field, o) }));
    return (
      <SelectField
        label={label}
        name={name}
        value={value}
        onChange={onChange}
        options={[{ value: '', label: S.notSaid }, ...options]}
        error={error}
      />
    );
  }
  const numeric = field.kind === 'number' || field.kind === 'integer';
  return (
    <Field
      label={label}
      name={name}
      type={numeric ? 'number' : 'text'}
      inputMode={numeric ? 'decimal' : undefined}
      step={field.kind === 'integer' ? 1 : numeric ? 'any' : undefined}
      min={field.min}
      max={field.max}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={field.kind === 'list' ? S.listHint : undefined}
    />
  );
}
