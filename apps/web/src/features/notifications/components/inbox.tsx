import { appLink, pageOf } from '@rootline/contracts/app-links';
import { type ReactNode, useState } from 'react';
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
                {!n.read && <span className="badge">{S.new}</span>}{' '}
                <SubjectLink link={n.link} onOpen={() => !n.read && markRead.mutate(n.id)}>
                  {n.title}
                </SubjectLink>
              </h3>
              <p>{n.body}</p>
              <p className="hint">
                {TYPE_LABELS[n.type]} · <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
              </p>
              <p className="actions">
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

/**
 * An inbox item's title, a link to its subject: a page of the app (client-side), or a page the gateway renders (the
 * public trace page). Links stored before the table of pages (APP_PAGES) existed are mapped to today's pages.
 */
function SubjectLink({ link, onOpen, children }: { link: string | null; onOpen: () => void; children: ReactNode }) {
  const path = link ? currentPath(link) : null;
  if (!path) return <>{children}</>;
  if (path.startsWith('/api/')) {
    return (
      <a href={path} onClick={onOpen}>
        {children}
      </a>
    );
  }
  return (
    <Link to={path} onClick={onOpen}>
      {children}
    </Link>
  );
}

const LEGACY: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^\/marketplace\/listings\/([^/?#]+)$/, (m) => appLink('listing', { listingId: decodeURIComponent(m[1]!) })],
  [/^\/transport\/events\/([^/?#]+)$/, (m) => appLink('trace', { id: decodeURIComponent(m[1]!) })],
  [/^\/transparency\/webhooks(\/[^/?#]+)?$/, () => appLink('networkWebhooks')],
  [/^\/notifications$/, () => appLink('inbox')],
  [/^\/plants$/, () => appLink('registerPlant')],
];

function currentPath(link: string): string | null {
  if (pageOf(link)) return link;
  for (const [pattern, to] of LEGACY) {
    const m = link.match(pattern);
    if (m) return to(m);
  }
  return null;
}
