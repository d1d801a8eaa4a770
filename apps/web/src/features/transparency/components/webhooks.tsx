import { useId, useState } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { Field } from '../../../components/field';
import { ErrorAlert, Loading } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import type { PublicEventKind } from '../api/network';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useRedeliver,
  useTestWebhook,
  useUpdateWebhook,
  useWebhooks,
  type Webhook,
} from '../api/webhooks';
import { EVENT_KINDS, KIND_LABELS, kindLabel, TRANSPARENCY } from '../strings';

const S = TRANSPARENCY.webhooks;

/** A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

function SecretOnce({ secret }: { secret: string }) {
  return (
    <div className="alert alert-ok" role="status">
      <p>{S.secretOnce}</p>
      <p className="secret">{secret}</p>
      <CopyButton text={secret} label="Copy the secret" />
    </div>
  );
}

interface Draft {
  url: string;
  events: PublicEventKind[];
  scope: 'own' | 'public';
}

/** The address, kinds and scope of a webhook, for creating and editing one. */
function WebhookFields({ draft, onChange, error }: { draft: Draft; onChange: (d: Draft) => void; error: unknown }) {
  const id = useId();
  const eventsError = errorFor(error, 'events');
  return (
    <>
      <Field
        label={S.url}
        name="url"
        type="url"
        required
        maxLength={2000}
        value={draft.url}
        onChange={(e) => onChange({ ...draft, url: e.target.value })}
        error={errorFor(error, 'url')}
      />
      <fieldset
        className="field"
        aria-invalid={eventsError ? true : undefined}
        aria-describedby={eventsError ? `${id}-events-error` : undefined}
      >
        <legend>{S.events}</legend>
        <div className="checkbox-grid">
          {EVENT_KINDS.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                name="events"
                value={kind}
                checked={draft.events.includes(kind)}
                onChange={(e) =>
                  onChange({
                    ...draft,
                    events: e.target.checked ? [...draft.events, kind] : draft.events.filter((k) => k !== kind),
                  })
                }
              />{' '}
              {KIND_LABELS[kind]}
            </label>
          ))}
        </div>
        {eventsError && (
          <p className="field-error" id={`${id}-events-error`}>
            {eventsError}
          </p>
        )}
      </fieldset>
      <fieldset className="field">
        <legend>{S.scope}</legend>
        {(['own', 'public'] as const).map((scope) => (
          <label key={scope} className="radio">
            <input
              type="radio"
              name={`scope-${id}`}
              value={scope}
              checked={draft.scope === scope}
              onChange={() => onChange({ ...draft, scope })}
            />{' '}
            {S.scopes[scope]}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** Registers a webhook; its signing secret is shown once. */
export function CreateWebhookForm() {
  const create = useCreateWebhook();
  const [draft, setDraft] = useState<Draft>({ url: '', events: ['plant.registered'], scope: 'own' });
  const [secret, setSecret] = useState('');
  return (
    <form
      className="card form"
      aria-labelledby="new-webhook-heading"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(
          { ...draft, secret: secret || randomSecret() },
          {
            onSuccess: () => {
              setSecret('');
              setDraft({ ...draft, url: '' });
            },
          },
        );
      }}
    >
      <h2 id="new-webhook-heading">{S.create}</h2>
      <ErrorAlert error={create.error} />
      <WebhookFields draft={draft} onChange={setDraft} error={create.error} />
      <Field
        label={S.secret}
        name="secret"
        minLength={16}
        maxLength={200}
        autoComplete="off"
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
        hint={S.secretHint}
        error={errorFor(create.error, 'secret')}
      />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? S.saving : S.save}
      </button>
      {create.data && <SecretOnce secret={create.data.signingSecret} />}
    </form>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(webhook.id, page);
  const redeliver = useRedeliver(webhook.id);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h4 id={headingId}>{S.of(webhook.url)}</h4>
      <ErrorAlert error={redeliver.error} />
      {deliveries.isPending ? (
        <Loading />
      ) : deliveries.error ? (
        <ErrorAlert error={deliveries.error} />
      ) : deliveries.data.items.length === 0 ? (
        <p>{S.noDeliveries}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{S.columns.kind}</th>
                <th scope="col">{S.columns.status}</th>
                <th scope="col">{S.columns.attempts}</th>
                <th scope="col">{S.columns.last}</th>
                <th scope="col">{S.columns.next}</th>
                <th scope="col">{S.columns.action}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((d) => (
                <tr key={d.id}>
                  <td>{kindLabel(d.kind)}</td>
                  <td>
                    <span className={d.status === 'failed' ? 'badge bad' : 'badge'}>{d.status}</span>
                  </td>
                  <td>{d.attempts}</td>
                  <td>
                    {d.lastStatus !== null ? `HTTP ${d.lastStatus}` : ''}
                    {d.lastError ? <div className="hint">{d.lastError}</div> : null}
                  </td>
                  <td>
                    {d.deliveredAt
                      ? formatDateTime(d.deliveredAt)
                      : d.nextAttemptAt
                        ? formatDateTime(d.nextAttemptAt)
                        : '—'}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary small"
                      disabled={redeliver.isPending}
                      aria-label={`${S.redeliver} ${kindLabel(d.kind)} ${d.id}`}
                      onClick={() => redeliver.mutate(d.id)}
                    >
                      {S.redeliver}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="actions">
        <button type="button" className="secondary small" onClick={() => void deliveries.refetch()}>
          {S.refresh}
        </button>
        {deliveries.data && deliveries.data.pagination.totalPages > 1 && (
          <>
            <button type="button" className="secondary small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {TRANSPARENCY.audit.previous}
            </button>
            <button
              type="button"
              className="secondary small"
              disabled={page >= deliveries.data.pagination.totalPages}
              onClick={() => setPage(page + 1)}
            >
              {TRANSPARENCY.audit.next}
            </button>
          </>
        )}
      </p>
    </section>
  );
}

function WebhookItem({ webhook }: { webhook: Webhook }) {
  const update = useUpdateWebhook(webhook.id);
  const test = useTestWebhook(webhook.id);
  const remove = useDeleteWebhook();
  const [editing, setEditing] = useState<Draft | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const headingId = useId();
  return (
    <li className="card">
      <h3 id={headingId} className="webhook-url">
        {webhook.url}
      </h3>
      <dl className="facts">
        <dt>{S.status}</dt>
        <dd>
          {webhook.status === 'active' ? (
            <span className="badge">{S.active}</span>
          ) : (
            <span className="badge bad">{S.disabled(webhook.disabledReason)}</span>
          )}
        </dd>
        <dt>{S.events}</dt>
        <dd>{webhook.events.map(kindLabel).join(', ')}</dd>
        <dt>{S.scope}</dt>
        <dd>{S.scopes[webhook.scope]}</dd>
        <dt>{S.created}</dt>
        <dd>{formatDateTime(webhook.createdAt)}</dd>
      </dl>
      <ErrorAlert error={update.error ?? test.error ?? remove.error} />
      {secret && <SecretOnce secret={secret} />}
      {test.data && (
        <p className={test.data.delivered ? 'alert alert-ok' : 'alert alert-error'} role="status">
          {S.tested(test.data.delivered, test.data.httpStatus, test.data.durationMs)}
          {test.data.error ? ` ${test.data.error}` : ''}
        </p>
      )}
      {editing ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate(editing, { onSuccess: () => setEditing(null) });
          }}
        >
          <WebhookFields draft={editing} onChange={setEditing} error={update.error} />
          <p className="actions">
            <button type="submit" disabled={update.isPending}>
              {S.saveChanges}
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              {S.cancel}
            </button>
          </p>
        </form>
      ) : (
        <p className="actions">
          <button
            type="button"
            className="secondary small"
            onClick={() =>
              setEditing({ url: webhook.url, events: webhook.events as PublicEventKind[], scope: webhook.scope })
            }
          >
            {S.edit}
          </button>
          <button
            type="button"
            className="secondary small"
            disabled={update.isPending}
            onClick={() =>
              update.mutate({ secret: randomSecret() }, { onSuccess: (w) => setSecret(w.signingSecret ?? null) })
            }
          >
            {S.rotate}
          </button>
          <button type="button" className="secondary small" disabled={test.isPending} onClick={() => test.mutate()}>
            {S.test}
          </button>
          {webhook.status === 'disabled' && (
            <button type="button" className="secondary small" onClick={() => update.mutate({ status: 'active' })}>
              {S.enable}
            </button>
          )}
          <button
            type="button"
            className="secondary small"
            aria-expanded={showDeliveries}
            onClick={() => setShowDeliveries(!showDeliveries)}
          >
            {S.deliveries}
          </button>
          <button
            type="button"
            className="danger small"
            disabled={remove.isPending}
            onClick={() => remove.mutate(webhook.id)}
          >
            {S.delete}
          </button>
        </p>
      )}
      {showDeliveries && <Deliveries webhook={webhook} />}
    </li>
  );
}

/** The caller's webhooks, each with its management and its delivery log. */
export function WebhookList() {
  const hooks = useWebhooks();
  if (hooks.isPending) return <Loading />;
  if (hooks.error) return <ErrorAlert error={hooks.error} />;
  if (hooks.data.length === 0) return <p>{S.none}</p>;
  return (
    <ul className="plain-list">
      {hooks.data.map((w) => (
        <WebhookItem key={w.id} webhook={w} />
      ))}
    </ul>
  );
}
