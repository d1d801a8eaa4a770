import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { Field } from '../../../components/field';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { type Permission, useCreateToken, useRevokeToken, useTokens } from '../api/tokens';
import { AUTH } from '../strings';

const S = AUTH.tokens;

/** Create a token with chosen permissions (its secret shown once), list and revoke them. */
export function TokensPanel({ permissions }: { permissions: readonly Permission[] }) {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Permission[]>([]);
  const [expires, setExpires] = useState('');
  return (
    <section className="card" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">{S.title}</h2>
      <p>{S.lead}</p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            {
              name,
              ...(scopes.length ? { scopes } : {}),
              ...(expires ? { expiresAt: new Date(`${expires}T23:59:59Z`).toISOString() } : {}),
            },
            { onSuccess: () => setName('') },
          );
        }}
      >
        <ErrorAlert error={create.error} />
        <Field
          label={S.name}
          name="name"
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errorFor(create.error, 'name')}
        />
        <fieldset className="checkbox-grid">
          <legend>{S.permissions}</legend>
          <p className="hint">{S.allPermissions}</p>
          {permissions.map((p) => (
            <label key={p} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.includes(p)}
                onChange={(e) => setScopes(e.target.checked ? [...scopes, p] : scopes.filter((s) => s !== p))}
              />
              {p}
            </label>
          ))}
        </fieldset>
        <Field
          label={S.expires}
          name="expiresAt"
          type="date"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          error={errorFor(create.error, 'expiresAt')}
        />
        <button type="submit" disabled={create.isPending}>
          {S.create}
        </button>
      </form>
      {create.data && (
        <Notice>
          <p>{S.created}</p>
          <p>
            <label>
              {S.tokenLabel}
              <input className="secret" readOnly value={create.data.token} onFocus={(e) => e.target.select()} />
            </label>
          </p>
          <CopyButton text={create.data.token} label={S.copy} />
        </Notice>
      )}
      <ErrorAlert error={revoke.error} />
      {tokens.isPending ? (
        <Loading />
      ) : tokens.error ? (
        <ErrorAlert error={tokens.error} />
      ) : tokens.data.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{S.columns.name}</th>
                <th scope="col">{S.columns.scopes}</th>
                <th scope="col">{S.columns.created}</th>
                <th scope="col">{S.columns.lastUsed}</th>
                <th scope="col">{S.columns.actions}</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
                <tr key={t.id}>
                  <td>
                    {t.name} <span className="muted">…{t.hint}</span>
                  </td>
                  <td>{t.scopes.length >= permissions.length ? S.all : t.scopes.join(', ')}</td>
                  <td>{formatDateTime(t.createdAt)}</td>
                  <td>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : S.never}</td>
                  <td>
                    <button
                      type="button"
                      className="danger small"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(t.id)}
                    >
                      {S.revoke(t.name)}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
