import { useSyncExternalStore } from 'react';

/** Where a tab keeps whom it acts for: per tab (sessionStorage), so two tabs may act for two organizations. */
const KEY = 'rootline.actingAs';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    // Storage refused (a private window's policy): the tab acts for the person alone.
    return null;
  }
}

/** The organization (`org_…`) this tab acts for, or null for the signed-in person alone. */
export function actingAs(): string | null {
  return read();
}

/** Makes this tab act for an organization (its id), or for the person alone (null). */
export function setActingAs(organizationId: string | null): void {
  try {
    if (organizationId) window.sessionStorage.setItem(KEY, organizationId);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Not kept: the choice lasts until the page reloads at most.
  }
  for (const listener of listeners) listener();
}

/** Whom this tab acts for, re-rendering when it changes. */
export function useActingAs(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => null,
  );
}
