import type { AuditEntry } from '@rootline/contracts/transparency';
import { appendLeaf, EMPTY_ROOT_HEX, type Frontier, frontierRoot, leafHashHex } from '@rootline/domain';
import canonicalize from 'canonicalize';

/** The bytes of an entry that are hashed: its RFC 8785 canonical JSON in UTF-8. */
export function entryBytes(entry: AuditEntry): Buffer {
  const text = canonicalize(entry);
  if (text === undefined) throw new Error(`audit entry ${entry.index} cannot be canonicalised`);
  return Buffer.from(text, 'utf8');
}

/** The entry's Merkle leaf hash, which is also the next entry's `prevHash`. */
export function entryHash(entry: AuditEntry): string {
  return leafHashHex(entryBytes(entry));
}

/** A problem found while verifying the log. */
export interface AuditProblem {
  index: number;
  problem: string;
}

/** Most problems one verification reports (the first one names where the log was changed). */
export const MAX_PROBLEMS = 100;

/**
 * Checks a log entry by entry, in index order, with constant memory: each stored entry must hash to its stored
 * leaf hash, sit at its index, and name the previous entry's hash; the Merkle root is rebuilt from the recomputed
 * hashes, so it differs from the stored root as soon as any entry changed.
 */
export function createLogVerifier() {
  let frontier: Frontier = [];
  let size = 0;
  let prev: string | null = null;
  const problems: AuditProblem[] = [];
  const report = (index: number, problem: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ index, problem });
  };
  return {
    add(row: { index: number; leafHash: string; body: string }) {
      const index = size;
      if (row.index !== index) report(index, `entry ${row.index} found where entry ${index} was expected`);
      let entry: AuditEntry | undefined;
      try {
        entry = JSON.parse(row.body) as AuditEntry;
      } catch {
        report(index, 'stored entry is not JSON');
      }
      const hash = entry ? entryHash(entry) : leafHashHex(Buffer.from(row.body, 'utf8'));
      if (hash !== row.leafHash) report(index, 'entry content does not match its stored leaf hash');
      if (entry && entry.index !== index) report(index, `entry says index ${entry.index}`);
      if (entry && entry.prevHash !== prev) report(index, 'prevHash does not name the previous entry');
      frontier = appendLeaf(frontier, index, hash).frontier;
      prev = hash;
      size++;
    },
    result() {
      return { size, computedRoot: size === 0 ? EMPTY_ROOT_HEX : frontierRoot(frontier), problems };
    },
  };
}
