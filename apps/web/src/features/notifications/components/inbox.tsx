import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import {
  useDeleteNotification,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
  useUnreadCount,
} from '../api/notifications';
import { NOTIFICATIONS_TEXT, TYPE_LABELS } from '../strings';

const S = NOTIFICATIONS_TEXT.inbox;

/** The person's notifications, newest first, with the unread count announced as it changes. */
export function Inbox() {
  const [page, setPage] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useNotifications(page, unreadOnly);
  const unread = useUnreadCount(true);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const remove = useDeleteNotification();
  return (
    <section className="card" aria-labelledby="inbox-heading">
      <h2 id="inbox-heading" className="visually-hidden">
        {S.title}
      </h2>
      <div className="toolbar">
        <p role="status" aria-live="polite" className="unread-count">
          {unread.data !== undefined ? S.unread(unread.data) : ''}
        </p>
        <label>
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(e) => {
              setUnreadOnly(e.target.checked);
              setPage(1);
            }}
          />{' '}
          {S.unreadOnly}
        </label>
        <button
          type="button"
          className="secondary small"
          disabled={markAll.isPending || !unread.data}
          onClick={() => markAll.mutate(undefined)}
        >
          {S.markAllRead}
        </button>
        <Link to="/settings/notifications">{S.settings}</Link>
      </div>
      <ErrorAlert error={markRead.error ?? markAll.error ?? remove.error} />
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <ErrorAlert error={list.error} />
      ) : list.data.items.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <ul className="results notifications">
          {list.data.items.map((n) => (
            <li key={n.id} className={n.read ? 'read' : 'unread'}>
              <h3>
                {!n.read && <span className="badge">{S.new}</span>} {n.title}
              </h3>
              <p>{n.body}</p>
              <p className="hint">
                {TYPE_LABELS[n.type]} · <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
              </p>
              <p className="actions">
                {n.link && (
                  <Link to={n.link} onClick={() => !n.read && markRead.mutate(n.id)}>
                    {S.open}
                  </Link>
                )}
                {!n.read && (
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={`${S.markRead}: ${n.title}`}
                    onClick={() => markRead.mutate(n.id)}
                  >
                    {S.markRead}
                  </button>
                )}
                <button
                  type="button"
                  className="danger small"
                  aria-label={`${S.delete}: ${n.title}`}
                  onClick={() => remove.mutate(n.id)}
                >
                  {S.delete}
                </button>
              </p>
            </li>
          ))}
        </ul>
      )}
      {list.data && list.data.pagination.totalPages > 1 && (
        <nav className="pager" aria-label={S.page(page, list.data.pagination.totalPages)}>
          <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {S.previous}
          </button>
          <span>{S.page(page, list.data.pagination.totalPages)}</span>
          <button
            type="button"
            className="secondary"
            disabled={page >= list.data.pagination.totalPages}
            onClick={() => setPage(page + 1)}
          >
            {S.next}
          </button>
        </nav>
      )}
    </section>
  );
}
