import {
  auditEntryLeafHash,
  type components,
  type paths,
  type Verification,
  verifyInclusion,
  verifyTreeHead,
} from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type AuditEntry = components['schemas']['AuditEntry'];
export type AuditFilters = NonNullable<paths['/api/transparency/audit']['get']['parameters']['query']>;

/** The audit log with filters, oldest first (ADMIN). */
export function useAuditLog(filters: AuditFilters) {
  return useQuery({
    queryKey: ['transparency', 'audit', filters],
    queryFn: () => unwrapPage(api.GET('/api/transparency/audit', { params: { query: filters } })),
    placeholderData: keepPreviousData,
  });
}

/** The log's current signed tree head. */
export function useTreeHead() {
  return useQuery({
    queryKey: ['transparency', 'tree-head'],
    queryFn: () => unwrap(api.GET('/api/transparency/audit/tree-head')),
  });
}

/** The public form of the entries at `indexes` (anyone may read them). */
export function usePublicEntries(indexes: readonly number[]) {
  return useQuery({
    queryKey: ['transparency', 'public-entries', indexes],
    queryFn: () =>
      Promise.all(
        indexes.map((index) =>
          unwrap(api.GET('/api/transparency/audit/{index}/public', { params: { path: { index } } })),
        ),
      ),
    placeholderData: keepPreviousData,
  });
}

/** One step of an entry's check, as shown to the person. */
export interface EntryCheck {
  step: 'content' | 'inclusion' | 'signature';
  result: Verification | null;
  /** What was compared, for the person to see. */
  detail: string;
}

/**
 * Checks an entry in this browser: the signed tree head now (its key looked up in the published key set, the
 * signature verified), the inclusion proof for that size from the entry's leaf hash to the signed root, and, when the
 * entry's content is known, that it hashes to that leaf.
 */
export function useCheckEntry() {
  return useMutation({
    mutationFn: async (target: { index: number; leafHash?: string; content: unknown | null }) => {
      const head = await unwrap(api.GET('/api/transparency/audit/tree-head'));
      const keys = await unwrap(api.GET('/api/transparency/audit/keys'));
      const key = keys.find((k) => k.keyId === head.keyId);
      const proof = await unwrap(
        api.GET('/api/transparency/audit/{index}/proof', {
          params: { path: { index: target.index }, query: { treeSize: head.treeSize } },
        }),
      );
      const checks: EntryCheck[] = [];
      if (target.content !== null) {
        const computed = await auditEntryLeafHash(target.content);
        checks.push({
          step: 'content',
          result: {
            valid: computed === proof.leafHash,
            problems: computed === proof.leafHash ? [] : ['the entry does not hash to the proven leaf'],
          },
          detail: computed,
        });
      } else {
        checks.push({ step: 'content', result: null, detail: proof.leafHash });
      }
      const inclusion = await verifyInclusion({ ...proof, rootHash: head.rootHash });
      if (target.leafHash && target.leafHash !== proof.leafHash) {
        inclusion.valid = false;
        inclusion.problems.push('the proof is of another leaf than the entry shows');
      }
      checks.push({ step: 'inclusion', result: inclusion, detail: `${proof.auditPath.length}` });
      const signature = key
        ? await verifyTreeHead(head, key.publicKey)
        : { valid: false, problems: [`no published key has id ${head.keyId}`] };
      checks.push({ step: 'signature', result: signature, detail: head.keyId });
      const valid = checks.every((c) => c.result === null || c.result.valid);
      return { index: target.index, head, proof, checks, valid };
    },
  });
}
