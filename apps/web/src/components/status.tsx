import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage, isRateLimited, retryAfterSeconds } from '../lib/errors';
import { COMMON } from '../lib/strings';

const STRINGS = COMMON.status;

/** An error from the API, announced when it appears; a 429 is a calm pause that tries again by itself. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  if (isRateLimited(error)) return <RateLimitNotice error={error} />;
  return (
    <div className="alert alert-error" role="alert">
      {title && <strong>{title} </strong>}
      {errorMessage(error)}
    </div>
  );
}

/**
 * What a 429 shows: a calm message counting down the answer's `Retry-After`, then the failed reads of the page are
 * asked again (or at once with the button). Never the raw error, never a sign-out.
 */
export function RateLimitNotice({ error }: { error: unknown }) {
  const client = useQueryClient();
  const [left, setLeft] = useState(() => retryAfterSeconds(error));
  useEffect(() => {
    setLeft(retryAfterSeconds(error));
  }, [error]);
  useEffect(() => {
    if (left <= 0) {
      void client.refetchQueries({ predicate: (q) => q.state.status === 'error' });
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, client]);
  return (
    <div className="alert alert-info" role="status">
      <strong>{STRINGS.busyTitle} </strong>
      {STRINGS.busy(left)}{' '}
      <button type="button" className="secondary small" onClick={() => setLeft(0)}>
        {STRINGS.retry}
      </button>
    </div>
  );
}

/** A success or information message, announced politely. */
export function Notice({ children }: { children: React.ReactNode }) {
  return (
    <div className="alert alert-ok" role="status">
      {children}
    </div>
  );
}

export function Loading({ label = COMMON.status.loading }: { label?: string }) {
  return (
    <p className="loading" role="status">
      {label}
    </p>
  );
}
