import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import type { User } from '../features/auth/api/session';
import { actsFor, useMyOrganizations } from '../features/organizations/api/organizations';
import { setActingAs, useActingAs } from '../lib/acting-as';
import { NAV } from './strings';

/**
 * Whom this tab acts for: the person, or one of their organizations where they are a member or more. A choice the
 * person no longer may make (removed, lowered to viewer) falls back to the person once their organizations load.
 */
export function useActingChoices(user: User) {
  const acting = useActingAs();
  const mine = useMyOrganizations();
  const choices = [
    { id: '', name: NAV.actingAsYou(user.name) },
    ...(mine.data ?? []).filter((o) => actsFor(o.role)).map((o) => ({ id: o.id, name: o.name })),
  ];
  useEffect(() => {
    if (acting && mine.data && !choices.some((c) => c.id === acting)) setActingAs(null);
  });
  const client = useQueryClient();
  const choose = (id: string) => {
    if (id === (acting ?? '')) return;
    setActingAs(id || null);
    // Answers depend on whom one acts for: ask again.
    void client.invalidateQueries();
  };
  const current = acting ? choices.find((c) => c.id === acting) : undefined;
  return { value: acting ?? '', current, choices, choose };
}

/** The same choice in the phone menu's sheet: a native select, shown once the person has an organization to act for. */
export function ActingAsSelect({ user }: { user: User }) {
  const acting = useActingChoices(user);
  const id = useId();
  if (acting.choices.length < 2) return null;
  return (
    <p className="field acting-as-field">
      <label htmlFor={id}>{NAV.actingAs}</label>
      <select id={id} value={acting.value} onChange={(e) => acting.choose(e.target.value)}>
        {acting.choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </p>
  );
}
