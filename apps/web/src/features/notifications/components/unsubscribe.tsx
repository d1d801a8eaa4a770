import { Link } from 'react-router';
import { ErrorAlert, Notice } from '../../../components/status';
import { type PreferenceType, useUnsubscribe } from '../api/notifications';
import { NOTIFICATIONS_TEXT, TYPE_LABELS } from '../strings';

const S = NOTIFICATIONS_TEXT.unsubscribe;

/** The type a token names, read from its (signed) payload for the question only; the API checks the signature. */
function typeOf(token: string): string | null {
  try {
    const payload = token.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/');
    const [, type] = JSON.parse(atob(payload)) as [string, string];
    return typeof type === 'string' ? type : null;
  } catch {
    return null;
  }
}

const label = (type: string | null) => (type ? ((TYPE_LABELS as Record<string, string>)[type] ?? type) : '');

/**
 * The page an email's unsubscribe link opens: it asks, then turns that email type off. Asking first keeps mail
 * scanners that open every link from unsubscribing people (ADR 150); mail clients use the one-click header instead.
 */
export function UnsubscribeConfirm({ token, signedIn }: { token: string; signedIn: boolean }) {
  const unsubscribe = useUnsubscribe();
  if (!token) return <p className="alert alert-error">{S.missing}</p>;
  const type = typeOf(token);
  if (unsubscribe.data) {
    return (
      <div aria-live="polite">
        <Notice>{S.done(label(unsubscribe.data.type as PreferenceType))}</Notice>
        <p>{S.again}</p>
        {signedIn && <Link to="/settings/notifications">{S.settings}</Link>}
      </div>
    );
  }
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        unsubscribe.mutate(token);
      }}
    >
      <p>{S.ask(label(type))}</p>
      <ErrorAlert error={unsubscribe.error} />
      <button type="submit" disabled={unsubscribe.isPending}>
        {unsubscribe.isPending ? S.busy : S.confirm}
      </button>
    </form>
  );
}
