import { CopyButton } from './copy-button';
import './record-ids.css';
import { COMMON } from '../lib/strings';

/** One identifier of a record, with what it identifies (`Listing id`). */
export interface RecordId {
  label: string;
  value: string | null | undefined;
}

/**
 * The identifiers behind what a page shows, folded away in a "Details" area with a copy button each: people read
 * names, and ids are there for whoever needs to quote one (support, the API).
 */
export function RecordIds({ ids, summary = COMMON.details }: { ids: readonly RecordId[]; summary?: string }) {
  const shown = ids.filter((i): i is { label: string; value: string } => !!i.value);
  if (shown.length === 0) return null;
  return (
    <details className="record-ids">
      <summary>{summary}</summary>
      <dl className="facts">
        {shown.map((i) => (
          <div key={i.label} className="record-id">
            <dt>{i.label}</dt>
            <dd>
              <span className="mono">{i.value}</span>{' '}
              <CopyButton text={i.value} label={`Copy the ${i.label.toLowerCase()}`} />
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
