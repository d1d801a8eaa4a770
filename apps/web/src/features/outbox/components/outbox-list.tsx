import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage, fieldErrors, fieldLabel, fieldPath } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { discardItem, flushOutbox } from '../api/outbox';
import { asError } from '../api/send';
import { useOutboxItems } from '../api/use-outbox';
import { LOCAL_REF, type OutboxItem } from '../lib/order';
import { OUTBOX as S } from '../strings';
import '../outbox.css';

/** The page a kept write's form is on (to record it again), and the page of what it made once sent. */
function formOf(item: OutboxItem): string {
  if (item.kind === 'plant' || item.plantId.startsWith(LOCAL_REF)) return '/plants/new';
  const plant = `/plants/${encodeURIComponent(item.plantId)}`;
  return item.kind === 'event' ? `${plant}?tab=journey` : item.kind === 'reading' ? `${plant}?tab=environment` : plant;
}

/** The kinds whose form opens prefilled with a refused item's fields ("Edit"); the others offer their form empty. */
const EDITABLE = new Set<OutboxItem['kind']>(['plant', 'event', 'reading']);

/** The form that edits a refused item: a reading's is the plant's full environment form, which has every field. */
function editFormOf(item: OutboxItem): string {
  return item.kind === 'reading' ? `/plants/${encodeURIComponent(item.plantId)}/environment` : formOf(item);
}

function pageOf(item: OutboxItem): string {
  const plant = `/plants/${encodeURIComponent(item.result?.plantId ?? item.plantId)}`;
  return item.kind === 'event' ? `${plant}?tab=journey` : item.kind === 'reading' ? `${plant}/environment` : plant;
}

/** Why the API refused a write, in plain words: each field named as the form names it, with what to do. */
function reasonOf(item: OutboxItem): string {
  if (!item.refusal) return '';
  const error = asError(item.refusal);
  const fields = fieldErrors(error);
  if (fields.length === 0) return errorMessage(error);
  return fields
    .map((f) => `${S.field(fieldPath(f.field).split('.').pop() ?? '') ?? fieldLabel(f.field)}: ${f.message}`)
    .join(' ');
}

function Made({ item }: { item: OutboxItem }) {
  return (
    <span className="muted">
      {S.made} <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
    </span>
  );
}

/** Whether the browser says it is online, kept up to date. */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/**
 * The account's writes kept on this device: those waiting to be sent (in the order they will be), those Rootline
 * refused (with why, to discard or record again), and those sent lately (with a link to what they made).
 */
export function OutboxList({ account, canSend }: { account: string; canSend: boolean }) {
  const items = useOutboxItems(account);
  const online = useOnline();
  const [sending, setSending] = useState(false);
  const waiting = items.filter((i) => i.state === 'waiting');
  const refused = items.filter((i) => i.state === 'refused');
  const sent = items.filter((i) => i.state === 'sent').reverse();
  return (
    <>
      <section className="card" aria-labelledby="outbox-waiting">
        <h2 id="outbox-waiting">{S.waiting}</h2>
        {waiting.length === 0 ? (
          <p>{S.nothingWaiting}</p>
        ) : (
          <>
            <ol className="outbox-list">
              {waiting.map((item) => (
                <li key={item.id}>
                  <strong>{S.line(item)}</strong>
                  <br />
                  <Made item={item} />
                  {item.attempts > 0 && <span className="muted"> · {S.tries(item.attempts)}</span>}
                </li>
              ))}
            </ol>
            <p className="muted">{!online ? S.offline : !canSend ? S.signedOut : null}</p>
            {online && canSend && (
              <button
                type="button"
                className="secondary"
                disabled={sending}
                onClick={() => {
                  setSending(true);
                  void flushOutbox().finally(() => setSending(false));
                }}
              >
                {sending ? S.sending : S.sendNow}
              </button>
            )}
          </>
        )}
      </section>
      {refused.length > 0 && (
        <section className="card" aria-labelledby="outbox-refused">
          <h2 id="outbox-refused">{S.refused}</h2>
          <p>{S.refusedLead}</p>
          <ul className="outbox-list">
            {refused.map((item) => (
              <li key={item.id}>
                <strong>{S.line(item)}</strong>
                <p className="outbox-reason">{reasonOf(item)}</p>
                <Made item={item} />
                <div className="outbox-actions">
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={S.discardLabel(item)}
                    onClick={() => void discardItem(item.id)}
                  >
                    {S.discard}
                  </button>
                  {EDITABLE.has(item.kind) ? (
                    <Link
                      to={editFormOf(item)}
                      state={{
                        outboxEdit: { id: item.id, kind: item.kind, body: item.body, eventKind: item.eventKind },
                      }}
                      aria-label={S.editLabel(item)}
                    >
                      {S.edit}
                    </Link>
                  ) : (
                    <Link to={formOf(item)}>{S.openForm}</Link>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
      {sent.length > 0 && (
        <section className="card" aria-labelledby="outbox-sent">
          <h2 id="outbox-sent">{S.sent}</h2>
          <ul className="outbox-list">
            {sent.map((item) => (
              <li key={item.id}>
                <strong>{S.line(item)}</strong>{' '}
                <Link to={pageOf(item)} aria-label={S.openLabel(item)}>
                  {S.open}
                </Link>
                <br />
                <Made item={item} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
