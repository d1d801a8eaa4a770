import type { AuditEntry } from '@rootline/contracts';
import { anyOfTexts, type Db, executePrepared, insertFromJson } from '@rootline/db';
import {
  appendLeaves,
  EMPTY_ROOT_HEX,
  type Frontier,
  frontierRoot,
  leafHashHex,
  type NodeRef,
  nodeKey,
} from '@rootline/domain';
import { and, asc, count, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { entryBytes } from '../domain/audit-entry.js';
import { auditEntries, auditHead, auditNodes } from './schema.js';

const HEAD_ID = 1;

/** An entry before it has a place in the log. */
export type AuditDraft = Omit<AuditEntry, 'index' | 'prevHash'>;

export interface AuditHead {
  size: number;
  rootHash: string;
  frontier: Frontier;
}

/** Creates the head row of an empty log if it is missing. */
export async function ensureHead(db: Db, now: Date): Promise<void> {
  await db
    .insert(auditHead)
    .values({
      id: HEAD_ID,
      size: 0,
      frontier: [],
      rootHash: EMPTY_ROOT_HEX,
      lastHash: null,
      updatedAt: now.toISOString(),
    })
    .onConflictDoNothing();
}

export async function readHead(db: Db): Promise<AuditHead> {
  const [row] = await db.select().from(auditHead).where(eq(auditHead.id, HEAD_ID));
  if (!row) return { size: 0, rootHash: EMPTY_ROOT_HEX, frontier: [] };
  return { size: row.size, rootHash: row.rootHash, frontier: row.frontier };
}

/**
 * Appends an entry at the end of the log inside the caller's transaction (see `appendEntries`). An event already
 * in the log is not appended again: undefined is returned.
 */
export async function appendEntry(tx: Db, draft: AuditDraft, now: Date): Promise<AuditEntry | undefined> {
  const [entry] = await appendEntries(tx, [draft], now);
  return entry;
}

/**
 * Appends entries at the end of the log, in the order given, inside the caller's transaction: locks the head row
 * once (so appends are serial and the index order is the commit order), links each entry to the one before,
 * stores their leaves and the subtrees they complete, and moves the head once. An entry whose event is already in
 * the log (or earlier in the same call) is not appended: its place in the answer is undefined.
 */
export async function appendEntries(
  tx: Db,
  drafts: readonly AuditDraft[],
  now: Date,
): Promise<(AuditEntry | undefined)[]> {
  if (drafts.length === 0) return [];
  // Raw statements with fixed texts, run prepared: drizzle's query building and a describe round trip per
  // statement were most of the consumer's CPU per event (pnpm bench audit-log profile).
  const [head] = await executePrepared<{ size: string | number; frontier: Frontier; lastHash: string | null }>(
    tx,
    sql`select ${auditHead.size}, ${auditHead.frontier}, ${auditHead.lastHash} as "lastHash" from ${auditHead}
      where ${auditHead.id} = ${HEAD_ID} for update`,
  );
  if (!head) throw new Error('audit head row is missing');
  const size = Number(head.size);
  const eventIds = drafts.flatMap((d) => (d.eventId ? [d.eventId] : []));
  const seen = new Set<string>();
  if (eventIds.length > 0) {
    const rows = await executePrepared<{ eventId: string }>(
      tx,
      sql`select ${auditEntries.eventId} as "eventId" from ${auditEntries}
        where ${auditEntries.eventId} = ${anyOfTexts(eventIds)}`,
    );
    for (const r of rows) seen.add(r.eventId);
  }

  const out: (AuditEntry | undefined)[] = [];
  const rows: (typeof auditEntries.$inferInsert)[] = [];
  const hashes: string[] = [];
  let lastHash = head.lastHash;
  for (const draft of drafts) {
    if (draft.eventId && seen.has(draft.eventId)) {
      out.push(undefined);
      continue;
    }
    if (draft.eventId) seen.add(draft.eventId);
    const entry: AuditEntry = { index: size + rows.length, prevHash: lastHash, ...draft };
    const bytes = entryBytes(entry);
    const hash = leafHashHex(bytes);
    // Every key given in every row (null rather than left out): one statement text for every batch.
    rows.push({
      index: entry.index,
      body: bytes.toString('utf8'),
      leafHash: hash,
      eventId: entry.eventId ?? null,
      kind: entry.kind,
      actor: entry.actor ?? null,
      entity: entry.entity ?? null,
      occurredAt: entry.occurredAt,
    });
    hashes.push(hash);
    lastHash = hash;
    out.push(entry);
  }
  if (rows.length === 0) return out;

  // The entries, their Merkle nodes and the head's move in one statement (rows as one JSON parameter each).
  const { frontier, nodes } = appendLeaves(head.frontier, size, hashes);
  const inserts = [sql`entries as (${insertFromJson(auditEntries, rows)})`];
  if (nodes.length > 0) {
    inserts.push(
      sql`nodes as (${insertFromJson(
        auditNodes,
        nodes.map((n) => ({ level: n.level, idx: n.idx, hash: n.hash })),
      )})`,
    );
  }
  await executePrepared(
    tx,
    sql`with ${sql.join(inserts, sql`, `)}
      update ${auditHead} set size = ${size + rows.length}, frontier = ${JSON.stringify(frontier)}::jsonb,
        root_hash = ${frontierRoot(frontier)}, last_hash = ${lastHash}, updated_at = ${now.toISOString()}::timestamptz
      where ${auditHead.id} = ${HEAD_ID}`,
  );
  return out;
}

export interface AuditFilter {
  actor?: string | undefined;
  kind?: string | undefined;
  entity?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function where(f: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.actor) parts.push(eq(auditEntries.actor, f.actor));
  if (f.kind) parts.push(eq(auditEntries.kind, f.kind));
  if (f.entity) parts.push(eq(auditEntries.entity, f.entity));
  if (f.from) parts.push(gte(auditEntries.occurredAt, f.from));
  if (f.to) parts.push(lt(auditEntries.occurredAt, f.to));
  return parts.length > 0 ? and(...parts) : undefined;
}

/** One page of entries matching the filter, oldest first, and how many match in all. */
export async function listEntries(
  db: Db,
  f: AuditFilter,
  page: number,
  limit: number,
): Promise<{ items: AuditEntry[]; total: number }> {
  const cond = where(f);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ body: auditEntries.body })
      .from(auditEntries)
      .where(cond)
      .orderBy(asc(auditEntries.index))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(auditEntries).where(cond),
  ]);
  return { items: rows.map((r) => JSON.parse(r.body) as AuditEntry), total: counted?.n ?? 0 };
}

export async function getEntry(db: Db, index: number): Promise<{ entry: AuditEntry; leafHash: string } | undefined> {
  const [row] = await db.select().from(auditEntries).where(eq(auditEntries.index, index));
  return row ? { entry: JSON.parse(row.body) as AuditEntry, leafHash: row.leafHash } : undefined;
}

/** Entries with index ≥ `after` in index order, at most `limit` (for verification in batches). */
export function entryBatch(db: Db, after: number, limit: number) {
  return db
    .select({ index: auditEntries.index, body: auditEntries.body, leafHash: auditEntries.leafHash })
    .from(auditEntries)
    .where(gte(auditEntries.index, after))
    .orderBy(asc(auditEntries.index))
    .limit(limit);
}

/** The stored hashes of the given perfect subtrees, keyed by `nodeKey`. */
export async function readNodes(db: Db, refs: NodeRef[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (refs.length === 0) return out;
  const byLevel = new Map<number, number[]>();
  for (const r of refs) byLevel.set(r.level, [...(byLevel.get(r.level) ?? []), r.idx]);
  const cond = or(
    ...[...byLevel].map(([level, idxs]) => and(eq(auditNodes.level, level), inArray(auditNodes.idx, idxs))),
  );
  const rows = await db.select().from(auditNodes).where(cond);
  for (const r of rows) out.set(nodeKey(r), r.hash);
  return out;
}
