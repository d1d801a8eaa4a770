import {
  AppError,
  auditAppend,
  auditGet,
  auditList,
  auditPublicGet,
  auditVerify,
  declaredEvents,
  paginate,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { appendEntry, entryBatch, getEntry, listEntries, readHead } from '../db/audit.repo.js';
import { createLogVerifier } from '../domain/audit-entry.js';
import { publicEntryOf } from '../domain/public-entry.js';

/** Entries read per query while verifying. */
const VERIFY_BATCH = 2000;

/** transparency.audit.list: entries oldest first, filtered by actor, kind, entity and time. */
export const listAudit = (ctx: ServiceContext) =>
  handle(auditList, async (input) => {
    const { page, limit } = input;
    const { items, total } = await listEntries(ctx.db, input, page, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** transparency.audit.get: one entry by index. */
export const getAudit = (ctx: ServiceContext) =>
  handle(auditGet, async ({ index }) => {
    const found = await getEntry(ctx.db, index);
    if (!found) throw notFound('Audit entry', String(index));
    return found.entry;
  });

/** transparency.audit.public-get: the public form of one entry (anyone may read it). */
export const getPublicAudit = (ctx: ServiceContext) => {
  const bySubject = new Map(declaredEvents().map((e) => [e.subject, e]));
  return handle(auditPublicGet, async ({ index }) => {
    const found = await getEntry(ctx.db, index);
    if (!found) throw notFound('Audit entry', String(index));
    return publicEntryOf(found.entry, found.leafHash, bySubject.get(found.entry.subject));
  });
};

/** transparency.audit.append: an ADMIN records an action and its reason. */
export const appendAudit = (ctx: ServiceContext) =>
  handle(auditAppend, async (input, call) => {
    const actor = actingUser(call);
    if (actor.role !== 'ADMIN')
      throw new AppError('FORBIDDEN', 'Only an ADMIN appends audit entries', { reason: 'admin-only' });
    const now = ctx.clock.now();
    const entry = await ctx.db.transaction((tx) =>
      appendEntry(
        tx,
        {
          source: 'admin',
          subject: `admin.${input.action}`,
          kind: `admin.${input.action}`,
          eventId: null,
          actor: actor.id,
          entity: input.entity ?? null,
          occurredAt: now.toISOString(),
          recordedAt: now.toISOString(),
          reason: input.reason,
          data: input.details ?? {},
        },
        now,
      ),
    );
    if (!entry) throw new Error('an admin entry was not appended');
    return entry;
  });

/**
 * transparency.audit.verify: re-reads the whole log in batches and recomputes every entry hash, the hash chain
 * and the Merkle root; the first problem names the index where the log was changed.
 */
export const verifyAudit = (ctx: ServiceContext) =>
  handle(auditVerify, async () => {
    const head = await readHead(ctx.db);
    const verifier = createLogVerifier();
    for (let after = 0; after < head.size; ) {
      const rows = await entryBatch(ctx.db, after, Math.min(VERIFY_BATCH, head.size - after));
      if (rows.length === 0) break;
      for (const row of rows) verifier.add(row);
      after = rows[rows.length - 1]!.index + 1;
    }
    const { size, computedRoot, problems } = verifier.result();
    if (size !== head.size)
      problems.push({ index: size, problem: `log holds ${size} entries, head says ${head.size}` });
    if (computedRoot !== head.rootHash && problems.length === 0) {
      problems.push({ index: Math.max(0, size - 1), problem: 'Merkle root does not match the stored root' });
    }
    return {
      valid: problems.length === 0,
      treeSize: head.size,
      rootHash: head.rootHash,
      computedRootHash: computedRoot,
      firstInvalidIndex: problems[0]?.index ?? null,
      problems,
    };
  });
