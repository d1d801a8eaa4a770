import { Link } from 'react-router';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { TRANSFERS as S } from '../../plants/strings';
import { type Transfer, useAnswerTransfer, useTransfers } from '../api/transfers';

/** One transfer: who offers what to whom, its state, and the answers the side looking at it may give. */
function TransferItem({ t, side }: { t: Transfer; side: 'incoming' | 'outgoing' }) {
  const answer = useAnswerTransfer();
  const names = { name: t.subjectName, from: t.from.name, to: t.to.name };
  const pending = t.status === 'pending';
  return (
    <li className="card transfer">
      <p>
        {t.subjectType === 'seed-lot' ? (
          <>
            <span className="badge">{S.kindSeedLot}</span>{' '}
            <Link to={`/seed-lots/${t.subjectId}`}>{S.offer(names)}</Link>
          </>
        ) : (
          <Link to={`/plants/${t.subjectId}`}>{S.offer(names)}</Link>
        )}
      </p>
      {t.message && <p className="hint">{S.note(t.message)}</p>}
      <p>
        <span className="badge">{S.status[t.status]}</span>{' '}
        <time dateTime={t.createdAt}>{formatDateTime(t.createdAt)}</time>
      </p>
      <ErrorAlert error={answer.error} />
      {answer.data?.status === 'accepted' && <Notice>{S.status.accepted}</Notice>}
      {pending && (
        <p className="actions">
          {side === 'incoming' ? (
            <>
              <button
                type="button"
                aria-label={S.acceptLabel(names)}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ transferId: t.id, answer: 'accept' })}
              >
                {S.accept}
              </button>
              <button
                type="button"
                className="secondary"
                aria-label={S.declineLabel(names)}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ transferId: t.id, answer: 'decline' })}
              >
                {S.decline}
              </button>
            </>
          ) : (
            <button
              type="button"
              className="secondary"
              aria-label={S.cancelLabel(names)}
              disabled={answer.isPending}
              onClick={() => answer.mutate({ transferId: t.id, answer: 'cancel' })}
            >
              {S.cancel}
            </button>
          )}
        </p>
      )}
    </li>
  );
}

/**
 * The transfers to (incoming) or from (outgoing) the signed-in person, or the organization the tab acts for:
 * pending first to answer. `pendingOnly` shows only those waiting (a panel on another page).
 */
export function TransferList({ side, pendingOnly = false }: { side: 'incoming' | 'outgoing'; pendingOnly?: boolean }) {
  const list = useTransfers({ direction: side, ...(pendingOnly ? { status: 'pending' as const } : {}) });
  const title = side === 'incoming' ? S.incoming : S.outgoing;
  if (list.isPending) return <Loading />;
  if (list.error) return <ErrorAlert error={list.error} />;
  if (pendingOnly && list.data.items.length === 0) return null;
  return (
    <section aria-labelledby={`transfers-${side}`}>
      <h2 id={`transfers-${side}`}>{title}</h2>
      {list.data.items.length === 0 ? (
        <p>{side === 'incoming' ? S.noneIncoming : S.noneOutgoing}</p>
      ) : (
        <ul className="transfer-list">
          {list.data.items.map((t) => (
            <TransferItem key={t.id} t={t} side={side} />
          ))}
        </ul>
      )}
      {pendingOnly && (
        <p>
          <Link to="/transfers">{S.all}</Link>
        </p>
      )}
    </section>
  );
}
