import type { EventDef } from '@rootline/contracts/define';
import { publicFormOf } from '@rootline/contracts/define';
import type { AuditEntry } from '@rootline/contracts/transparency';
import type { PublicAuditEntry } from '@rootline/contracts/transparency-public';
import canonicalize from 'canonicalize';

/** Whether `value` appears as a string anywhere in `data` (an actor named in a public payload is public). */
function names(data: unknown, value: string): boolean {
  if (data === value) return true;
  if (typeof data !== 'object' || data === null) return false;
  return Object.values(data).some((v) => names(v, value));
}

/**
 * The public form of an audit entry: for an event of a public kind, what the public event history shows (its
 * kind, entity, times and the payload's public fields); for anything else only its kind (the event subject, or
 * `admin`) and times. The whole entry is added when it says nothing more than that: a public event whose payload
 * is all public and whose actor is nobody or someone its public payload already names.
 */
export function publicEntryOf(
  entry: AuditEntry,
  leafHash: string,
  def: (EventDef & { kind?: string }) | undefined,
): PublicAuditEntry {
  const base = {
    index: entry.index,
    leafHash,
    prevHash: entry.prevHash,
    source: entry.source,
    occurredAt: entry.occurredAt,
    recordedAt: entry.recordedAt,
  };
  if (entry.source !== 'event' || !def?.kind) {
    return { ...base, kind: entry.source === 'admin' ? 'admin' : entry.subject, entity: null, data: null, entry: null };
  }
  const data = publicFormOf(def, entry.data);
  const allPublic =
    canonicalize(data) === canonicalize(entry.data) && (entry.actor === null || names(data, entry.actor));
  return { ...base, kind: def.kind, entity: entry.entity, data, entry: allPublic ? entry : null };
}
