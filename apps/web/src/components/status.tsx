import { errorMessage } from '../lib/errors';

/** An error from the API, announced when it appears. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="alert alert-error" role="alert">
      {title && <strong>{title} </strong>}
      {errorMessage(error)}
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

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      {label}
    </p>
  );
}
