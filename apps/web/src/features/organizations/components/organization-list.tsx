import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ErrorAlert, Loading } from '../../../components/status';
import './organizations.css';
import { ORG_KINDS, type Organization, type OrgKind, useOrganizations } from '../api/organizations';
import { KIND_LABELS, ORGS } from '../strings';

const S = ORGS.list;

/** One organization as a card: name (a link to its profile), kind, members, where. */
export function OrganizationCard({ org, extra }: { org: Organization; extra?: React.ReactNode }) {
  const place = [org.location?.city, org.location?.country].filter(Boolean).join(', ');
  return (
    <li className="card org-card">
      <h2>
        <Link to={`/organizations/${org.id}`}>{org.name}</Link>
      </h2>
      <p className="muted">
        {KIND_LABELS[org.kind] ?? org.kind} · {ORGS.profile.members(org.memberCount)}
        {place ? ` · ${place}` : ''}
      </p>
      {org.description && <p>{org.description}</p>}
      {extra}
    </li>
  );
}

/** Public organizations, searched by words and kind, a page at a time. */
export function OrganizationList() {
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<{ q: string; kind: OrgKind | ''; page: number }>({ q: '', kind: '', page: 1 });
  const orgs = useOrganizations(filter);
  return (
    <>
      <form
        className="row search-row"
        aria-label={S.find}
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ ...filter, q: text.trim(), page: 1 });
        }}
      >
        <div className="field">
          <label htmlFor="org-search">{S.search}</label>
          <input id="org-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <SelectField
          label={S.kind}
          name="kind"
          value={filter.kind}
          onChange={(kind) => setFilter({ ...filter, kind: kind as OrgKind | '', page: 1 })}
          options={[
            { value: '', label: S.anyKind },
            ...ORG_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] ?? k })),
          ]}
        />
        <div className="actions">
          <button type="submit">{S.submit}</button>
        </div>
      </form>
      {orgs.isPending ? (
        <Loading />
      ) : orgs.error ? (
        <ErrorAlert error={orgs.error} />
      ) : (
        <>
          <p role="status">{S.found(orgs.data.pagination.total)}</p>
          {orgs.data.items.length === 0 ? (
            <p>{S.none}</p>
          ) : (
            <ul className="org-cards" aria-label={S.title}>
              {orgs.data.items.map((o) => (
                <OrganizationCard key={o.id} org={o} />
              ))}
            </ul>
          )}
          <Pager
            label={S.title}
            page={orgs.data.pagination.page}
            totalPages={orgs.data.pagination.totalPages}
            onPage={(page) => setFilter({ ...filter, page })}
          />
        </>
      )}
    </>
  );
}
