import {
  AppError,
  type FederationPeer,
  federationPeersList,
  type PeerProofBundle,
  type ProofBundle,
  peerBundleGet,
  peerForkClear,
  peerPlantVerify,
  peerTransactionVerify,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import { appendEntry } from '../db/audit.repo.js';
import {
  deleteBundlesOf,
  deletePeer,
  listPeerRows,
  lockPeer,
  type PeerRow,
  readBundle,
  readPeer,
  saveBundle,
} from '../db/federation.repo.js';
import { bundleDigest, ledgerProblems, plantFacts } from '../domain/peer-plant.js';
import { checkPeerBundle, type Peer, type PeerCheckpoint } from '../domain/peers.js';
import { PeerForked, PeerHasNoSuchEntry, type PeerMirror, PeerUnreachable } from '../jobs/peer-mirror.js';

/** transparency.peer.list: every peer of PEERS with what this node last verified of its log. */
export const listPeers = (ctx: ServiceContext, peers: readonly Peer[]) =>
  handle(federationPeersList, async () => {
    const rows = new Map((await listPeerRows(ctx.db)).map((r) => [r.name, r]));
    return { items: peers.map((peer) => peerView(peer, rows.get(peer.name))) };
  });

/** A peer as listed: its setting, and its row when it is of the peer's current log. */
function peerView(peer: Peer, found: PeerRow | null | undefined): FederationPeer {
  const row = found?.origin === peer.origin ? found : null;
  return {
    name: peer.name,
    url: peer.url,
    origin: peer.origin,
    state: row?.state ?? 'pending',
    treeSize: row?.size ?? null,
    rootHash: row?.rootHash ?? null,
    checkpoint: row?.note ?? null,
    verifiedAt: row?.verifiedAt ?? null,
    checkedAt: row?.checkedAt ?? null,
    problem: row?.problem ?? null,
    forkCheckpoint: row?.forkNote ?? null,
  };
}

/**
 * transparency.peer-fork.clear: an ADMIN clears a peer's fork once it has been dealt with (ADR 311). Under the
 * peer's lock, the evidence (the mirrored checkpoint, the inconsistent one and the problem) is appended to the audit
 * log as `admin.peer-fork-cleared` with the reason, and the peer's row and cached bundles are deleted, in one
 * transaction: the mirror starts again from the peer's current checkpoint at its next poll. A peer that is not a
 * fork is 409 `not-forked`, and nothing is written.
 */
export const clearPeerFork = (ctx: ServiceContext, peers: readonly Peer[]) =>
  handle(peerForkClear, async ({ peer: name, reason }, call) => {
    const actor = actingUser(call);
    if (actor.role !== 'ADMIN') {
      throw new AppError('FORBIDDEN', 'Only an ADMIN clears a peer’s fork', { reason: 'admin-only' });
    }
    const peer = peers.find((p) => p.name === name);
    if (!peer) throw new AppError('NOT_FOUND', `This node has no peer named ${name}`, { reason: 'unknown-peer' });
    const now = ctx.clock.now();
    await ctx.db.transaction(async (tx) => {
      await lockPeer(tx, peer.name);
      const row = await readPeer(tx, peer.name, peer.origin);
      if (row?.state !== 'fork') {
        throw new AppError('CONFLICT', `The log of the peer ${name} is not a fork`, { reason: 'not-forked' });
      }
      await appendEntry(
        tx,
        {
          source: 'admin',
          subject: 'admin.peer-fork-cleared',
          kind: 'admin.peer-fork-cleared',
          eventId: null,
          actor: actor.id,
          entity: peer.name,
          occurredAt: now.toISOString(),
          recordedAt: now.toISOString(),
          reason,
          data: {
            peer: peer.name,
            origin: peer.origin,
            treeSize: row.size,
            rootHash: row.rootHash,
            checkpoint: row.note,
            forkCheckpoint: row.forkNote,
            problem: row.problem,
          },
        },
        now,
      );
      await deletePeer(tx, peer.name);
      await deleteBundlesOf(tx, peer.name);
    });
    return peerView(peer, null);
  });

/** A peer's bundle of `entryId`, verified against the mirror: from the cache, or fetched and checked (ADR 307). */
async function verifiedPeerBundle(
  ctx: ServiceContext,
  peers: readonly Peer[],
  mirror: PeerMirror,
  name: string,
  entryId: string,
): Promise<PeerProofBundle> {
  const peer = peers.find((p) => p.name === name);
  if (!peer) throw new AppError('NOT_FOUND', `This node has no peer named ${name}`, { reason: 'unknown-peer' });
  const cached = await readBundle(ctx.db, peer.name, entryId);
  if (cached && (cached.bundle as ProofBundle).checkpoint?.startsWith(`${peer.origin}\n`)) {
    return {
      peer: peer.name,
      entryId,
      mirrored: { treeSize: cached.treeSize, rootHash: cached.rootHash },
      fetchedAt: cached.fetchedAt,
      bundle: cached.bundle as ProofBundle,
    };
  }
  // Cached bundles of an earlier setting of this name (another log) are forgotten.
  if (cached) await deleteBundlesOf(ctx.db, peer.name);
  const row = await readPeer(ctx.db, peer.name, peer.origin);
  if (row?.state === 'fork') {
    throw new AppError('CONFLICT', `The log of the peer ${name} forked; its bundles are not served: ${row.problem}`, {
      reason: 'peer-forked',
    });
  }
  try {
    const bundle = await mirror.fetchBundle(peer, entryId);
    let signed: PeerCheckpoint;
    try {
      signed = checkPeerBundle(peer, entryId, bundle);
    } catch (err) {
      throw new AppError('UNPROCESSABLE', `The peer’s bundle does not verify: ${(err as Error).message}`, {
        reason: 'bundle-unverified',
      });
    }
    const { mirrored } = await mirror.observe(peer, signed);
    const fetchedAt = ctx.clock.now().toISOString();
    await saveBundle(ctx.db, peer.name, entryId, {
      treeSize: mirrored.size,
      rootHash: mirrored.rootHash,
      bundle,
      fetchedAt,
    });
    return {
      peer: peer.name,
      entryId,
      mirrored: { treeSize: mirrored.size, rootHash: mirrored.rootHash },
      fetchedAt,
      bundle,
    };
  } catch (err) {
    if (err instanceof PeerHasNoSuchEntry) {
      throw new AppError('NOT_FOUND', `The peer ${name} has no ${entryId}`, { reason: 'not-on-peer' });
    }
    if (err instanceof PeerForked) {
      throw new AppError('CONFLICT', `The log of the peer ${name} forked; its bundles are not served: ${err.message}`, {
        reason: 'peer-forked',
      });
    }
    if (err instanceof PeerUnreachable) {
      throw new AppError('UNAVAILABLE', `The peer ${name}: ${err.message}`, { reason: 'peer-unreachable' });
    }
    throw err;
  }
}

/**
 * transparency.peer-bundle.get: a peer's proof bundle of a plant or transaction, from this node's cache or fetched
 * from the peer, checked on its own and related to the mirror of the peer's log (its checkpoint is one more
 * checkpoint of the peer: consistent with the mirror, or the peer has forked).
 */
export const getPeerBundle = (ctx: ServiceContext, peers: readonly Peer[], mirror: PeerMirror) =>
  handle(peerBundleGet, ({ peer, entryId }) => verifiedPeerBundle(ctx, peers, mirror, peer, entryId));

/**
 * transparency.peer-plant.verify: a peer's plant about to be named as a parent here. Refused while the peer is a
 * fork (even for a bundle verified before), else its registration's bundle is verified against the mirror as for
 * peer-bundle.get and, beyond that, its ledger half (transaction, block and proof of work) as `rootline-verify
 * bundle` checks it. Answers what the plants service stores with the link: the plant's names and generation from
 * the transaction, the block, the bundle's digest and the mirrored checkpoint.
 */
export const verifyPeerPlant = (ctx: ServiceContext, peers: readonly Peer[], mirror: PeerMirror) =>
  handle(peerPlantVerify, async ({ peer: name, plantId }) => {
    const { peer, served } = await verifiedInFull(ctx, peers, mirror, name, plantId);
    return { peer: peer.name, url: peer.url, plantId, ...plantFacts(served.bundle), ...proofOf(served) };
  });

/**
 * transparency.peer-transaction.verify: a peer's ledger transaction about to be recorded on here (ADR 309), checked
 * as peer-plant.verify checks a plant's registration: refused while the peer is a fork, its bundle verified against
 * the mirror and its ledger half in full. Only a transaction whose bundle carries an audit entry of the peer's log
 * verifies; others are refused `bundle-unverified`, since nothing the peer signed names them.
 */
export const verifyPeerTransaction = (ctx: ServiceContext, peers: readonly Peer[], mirror: PeerMirror) =>
  handle(peerTransactionVerify, async ({ peer: name, transactionId }) => {
    const { peer, served } = await verifiedInFull(ctx, peers, mirror, name, transactionId);
    const t = served.bundle.transaction;
    return {
      peer: peer.name,
      url: peer.url,
      transactionId,
      type: t.type,
      timestamp: t.timestamp,
      payload: t.payload,
      ...proofOf(served),
    };
  });

/**
 * A peer's bundle of `entryId` about to be relied on here: refused while the peer is a fork (even for a bundle
 * verified before), else verified against the mirror as for peer-bundle.get and, beyond that, its ledger half
 * (transaction, block and proof of work) as `rootline-verify bundle` checks it.
 */
async function verifiedInFull(
  ctx: ServiceContext,
  peers: readonly Peer[],
  mirror: PeerMirror,
  name: string,
  entryId: string,
): Promise<{ peer: Peer; served: PeerProofBundle }> {
  const peer = peers.find((p) => p.name === name);
  if (!peer) throw new AppError('NOT_FOUND', `This node has no peer named ${name}`, { reason: 'unknown-peer' });
  const row = await readPeer(ctx.db, peer.name, peer.origin);
  if (row?.state === 'fork') {
    throw new AppError('CONFLICT', `The log of the peer ${name} forked: ${row.problem}`, { reason: 'peer-forked' });
  }
  const served = await verifiedPeerBundle(ctx, peers, mirror, name, entryId);
  const problems = ledgerProblems(served.bundle);
  if (problems.length > 0) {
    throw new AppError('UNPROCESSABLE', `The peer’s bundle does not verify: ${problems.join('; ')}`, {
      reason: 'bundle-unverified',
    });
  }
  return { peer, served };
}

/** What a node stores with what it accepted of a peer: the checkpoint, the bundle's digest and the block. */
const proofOf = (served: PeerProofBundle) => ({
  checkpoint: served.mirrored,
  bundleDigest: bundleDigest(served.bundle),
  blockHash: served.bundle.block.hash,
  verifiedAt: served.fetchedAt,
});
