import { type Db, executeRows } from '@rootline/db';
import { and, eq, sql } from 'drizzle-orm';
import { federationBundles, federationPeers } from './schema.js';

/** What this node holds of a peer. */
export interface PeerRow {
  name: string;
  origin: string;
  state: 'pending' | 'ok' | 'unreachable' | 'fork';
  size: number | null;
  rootHash: string | null;
  note: string | null;
  verifiedAt: string | null;
  checkedAt: string | null;
  problem: string | null;
  forkNote: string | null;
}

const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());
const rowOf = (row: typeof federationPeers.$inferSelect): PeerRow =>
  ({ ...row, verifiedAt: iso(row.verifiedAt), checkedAt: iso(row.checkedAt) }) as PeerRow;

/** Holds the lock on one peer's mirror until the transaction ends: replicas and requests judge one at a time. */
export async function lockPeer(tx: Db, name: string): Promise<void> {
  await executeRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`federation-peer:${name}`}))`);
}

/** The row of a peer, unless it is of another origin (an earlier setting under the same name). */
export async function readPeer(db: Db, name: string, origin: string): Promise<PeerRow | null> {
  const [row] = await db.select().from(federationPeers).where(eq(federationPeers.name, name));
  if (!row || row.origin !== origin) return null;
  return rowOf(row);
}

export async function listPeerRows(db: Db): Promise<PeerRow[]> {
  return (await db.select().from(federationPeers)).map(rowOf);
}

export async function savePeer(tx: Db, row: PeerRow): Promise<void> {
  const { name, ...rest } = row;
  await tx.insert(federationPeers).values(row).onConflictDoUpdate({ target: federationPeers.name, set: rest });
}

/** A bundle of a peer fetched and verified before. */
export interface BundleRow {
  treeSize: number;
  rootHash: string;
  bundle: unknown;
  fetchedAt: string;
}

export async function readBundle(db: Db, peer: string, entryId: string): Promise<BundleRow | null> {
  const [row] = await db
    .select({
      treeSize: federationBundles.treeSize,
      rootHash: federationBundles.rootHash,
      bundle: federationBundles.bundle,
      fetchedAt: federationBundles.fetchedAt,
    })
    .from(federationBundles)
    .where(and(eq(federationBundles.peer, peer), eq(federationBundles.entryId, entryId)));
  return row ? { ...row, fetchedAt: new Date(row.fetchedAt).toISOString() } : null;
}

/** Keeps a verified bundle; a later one of the same entry replaces it. */
export async function saveBundle(db: Db, peer: string, entryId: string, row: BundleRow): Promise<void> {
  await db
    .insert(federationBundles)
    .values({ peer, entryId, ...row })
    .onConflictDoUpdate({ target: [federationBundles.peer, federationBundles.entryId], set: row });
}

/** Forgets the bundles of a peer (its setting now names another log). */
export async function deleteBundlesOf(db: Db, peer: string): Promise<void> {
  await db.delete(federationBundles).where(eq(federationBundles.peer, peer));
}

/** Forgets what this node held of a peer: its mirror starts again from the peer's next checkpoint. */
export async function deletePeer(tx: Db, name: string): Promise<void> {
  await tx.delete(federationPeers).where(eq(federationPeers.name, name));
}
