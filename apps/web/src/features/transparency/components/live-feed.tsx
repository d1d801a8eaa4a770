import type { RealtimeEvent } from '@rootline/sdk';
import { useState } from 'react';
import { ErrorAlert, Loading } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { formatDateTime } from '../../../lib/format';
import { useLiveRoom } from '../../../lib/live';
import { useRecentEvents } from '../api/network';
import { auditSentence, peopleIn } from '../lib/audit-sentences';
import { kindLabel, TRANSPARENCY } from '../strings';

const S = TRANSPARENCY.feed;
const KEEP = 30;

interface FeedItem {
  id: string;
  kind: string;
  occurredAt: string;
  data: unknown;
}

/** The public events as they are recorded: the newest from the history, then each from the `network` room. */
export function LiveFeed() {
  const recent = useRecentEvents();
  const [live, setLive] = useState<FeedItem[]>([]);
  useLiveRoom('network', (event: RealtimeEvent) => {
    setLive((items) =>
      items.some((i) => i.id === event.id)
        ? items
        : [{ id: event.id, kind: event.event, occurredAt: event.occurredAt, data: event.data }, ...items].slice(
            0,
            KEEP,
          ),
    );
  });
  const seen = new Set(live.map((i) => i.id));
  const items = [...live, ...(recent.data ?? []).filter((e) => !seen.has(e.id))].slice(0, KEEP);
  const { nameOf } = usePeople(items.flatMap(peopleIn));
  return (
    <section className="card" aria-labelledby="feed-heading">
      <h2 id="feed-heading">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      {recent.isPending ? (
        <Loading />
      ) : recent.error ? (
        <ErrorAlert error={recent.error} />
      ) : items.length === 0 ? (
        <p>{S.empty}</p>
      ) : null}
      <ol className="feed" aria-live="polite" aria-relevant="additions" aria-label={S.title}>
        {items.map((item) => (
          <li key={item.id}>
            <span className="badge">{kindLabel(item.kind)}</span> {auditSentence(item, nameOf)}{' '}
            <time className="hint" dateTime={item.occurredAt}>
              {formatDateTime(item.occurredAt)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}
