import { useEffect, useState } from 'react';
import { activateUpdate, onUpdateWaiting } from '../../../lib/service-worker';
import { APP } from '../strings';
import './update-prompt.css';

/**
 * "A new version is ready — Reload": shown while a new version of the app waits to take over (ADR 227). Reload lets
 * it take over; every open page of the app then reloads on it. Until then the page goes on as it is.
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState(false);
  const [reloading, setReloading] = useState(false);
  useEffect(() => onUpdateWaiting(setWaiting), []);
  if (!waiting) return null;
  return (
    <aside className="update-prompt" aria-label={APP.update.message}>
      <p role="status">{APP.update.message}</p>
      <button
        type="button"
        className="button"
        disabled={reloading}
        onClick={() => {
          setReloading(true);
          activateUpdate();
        }}
      >
        {APP.update.reload}
      </button>
    </aside>
  );
}
