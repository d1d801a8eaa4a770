import { type ReactNode, Suspense, useEffect, useState } from 'react';

/** The longest a part waits for an idle moment after the page's first paint. */
const IDLE_WAIT_MS = 2000;

/**
 * Mounts its children once the page has painted and the browser has a quiet moment (at most two seconds later), so a
 * part no first paint needs (a count in the header, a control in the footer) neither delays the page nor competes with
 * its code and data. Until then, and while their lazily loaded code comes, `fallback` holds their place.
 */
export function WhenIdle({ fallback = null, children }: { fallback?: ReactNode; children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(() => setIdle(true), 1);
      return () => clearTimeout(timer);
    }
    const id = requestIdleCallback(() => setIdle(true), { timeout: IDLE_WAIT_MS });
    return () => cancelIdleCallback(id);
  }, []);
  return idle ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
