import { useEffect, useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { usePeople } from '../../../hooks/use-people';
import type { User } from '../../auth/api/session';
import { useMyOrganizations, useOrganizations } from '../../organizations/api/organizations';
import { TRANSFERS } from '../../plants/strings';
import { useTransfers } from '../api/transfers';

const S = TRANSFERS.form;

/** A few letters before organizations are searched, and the pause after typing before they are. */
const MIN_QUERY = 2;
const TYPING_MS = 250;

/**
 * Who a record goes to, chosen the way the app names people and organizations: a quick choice (oneself, one's
 * organizations, whoever one gave to or got from before), an organization found by name (the public directory), or,
 * as a fallback, an id typed by hand. The chosen party is named back ("The transfer goes to …"), so an id typed wrong
 * shows before anything is sent.
 */
export function RecipientPicker({
  value,
  onChange,
  ownerId,
  user,
  error,
}: {
  value: string;
  onChange: (id: string) => void;
  /** The current owner: never offered. */
  ownerId: string;
  user: User;
  error?: string | undefined;
}) {
  const mine = useMyOrganizations();
  const outgoing = useTransfers({ direction: 'outgoing' });
  const incoming = useTransfers({ direction: 'incoming' });
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const wait = setTimeout(() => setQuery(typed.trim()), TYPING_MS);
    return () => clearTimeout(wait);
  }, [typed]);
  const found = useOrganizations({ q: query, kind: '', page: 1 });
  const searching = query.length >= MIN_QUERY;

  const offered = new Set([ownerId]);
  const choice = (id: string, label: string) => {
    if (offered.has(id)) return [];
    offered.add(id);
    return [{ value: id, label }];
  };
  const earlier = [
    ...(outgoing.data?.items ?? []).map((t) => t.to),
    ...(incoming.data?.items ?? []).map((t) => t.from),
  ];
  const choices = [
    ...choice(user.id, S.you(user.name)),
    ...(mine.data ?? []).flatMap((o) => choice(o.id, o.name)),
    ...earlier.flatMap((p) => choice(p.id, S.earlier(p.accountName ?? p.name))),
  ];
  const { nameOf, isPending } = usePeople([value.trim()]);
  const chosenName = value.trim() ? nameOf(value.trim()) : undefined;

  return (
    <fieldset className="stack">
      <legend>{S.recipient}</legend>
      {choices.length > 0 && (
        <SelectField
          label={S.choose}
          name="recipientChoice"
          value={choices.some((c) => c.value === value) ? value : ''}
          onChange={onChange}
          options={[{ value: '', label: S.chooseNone }, ...choices]}
        />
      )}
      <Field
        label={S.findOrg}
        name="organizationSearch"
        type="search"
        autoComplete="off"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        hint={S.findOrgHint}
      />
      {searching &&
        found.data &&
        (found.data.items.length === 0 ? (
          <p>{S.noOrgs}</p>
        ) : (
          <ul className="plain-list" aria-label={S.results}>
            {found.data.items
              .filter((o) => o.id !== ownerId)
              .map((o) => (
                <li key={o.id}>
                  <button
                    type="button"
                    className="secondary small"
                    aria-pressed={value === o.id}
                    onClick={() => onChange(o.id)}
                  >
                    {S.chooseOrg(o.name)}
                  </button>{' '}
                  <span className="muted">{[o.location?.city, o.location?.country].filter(Boolean).join(', ')}</span>
                </li>
              ))}
          </ul>
        ))}
      <Field
        label={S.byId}
        name="to"
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        hint={S.recipientHint}
        error={error}
      />
      <p aria-live="polite">
        {value.trim() === '' || isPending ? null : chosenName ? S.chosen(chosenName) : S.unknownId}
      </p>
    </fieldset>
  );
}
