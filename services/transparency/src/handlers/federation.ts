import { AppError, federationPeersList, type ProofBundle, peerBundleGet } from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { deleteBundlesOf, listPeerRows, readBundle, readPeer, saveBundle } from '../db/federation.repo.js';
import { checkPeerBundle, type Peer, type PeerCheckpoint } from '../domain/peers.js';
import { PeerForked, PeerHasNoSuchEntry, type PeerMirror, PeerUnreachable } from '../jobs/peer-mirror.js';

/** transparency.peer.list: every peer of PEERS with what this node last verified of its log. */
export const listPeers = (ctx: ServiceContext, peers: readonly Peer[]) =>
  handle(federationPeersList, async () => {
    const rows = new Map((await listPeerRows(ctx.db)).map((r) => [r.name, r]));
    return {
      items: peers.map((peer) => {
        const found = rows.get(peer.name);
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
      }),
    };
  });

/**
 * transparency.peer-bundle.get: a peer's proof bundle of a plant or transaction, from this node's cache or fetched
 * from the peer, checked on its own and related to the mirror of the peer's log (its checkpoint is one more
 * checkpoint of the peer: consistent with the mirror, or the peer has forked).
 */
export const getPeerBundle = (ctx: ServiceContext, peers: readonly Peer[], mirror: PeerMirror) =>
  handle(peerBundleGet, async ({ peer: name, entryId }) => {
    const peer = peers.find((p) => p.name === name);
    if (!peer) throw new AppError('NOT_FOUND', `This node has no peer named ${name}`);
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
      throw new AppError('CONFLICT', `The log of the peer ${name} forked; its bundles are not served: ${row.problem}`);
    }
    try {
      const bundle = await mirror.fetchBundle(peer, entryId);
      let signed: PeerCheckpoint;
      try {
        signed = checkPeerBundle(peer, entryId, bundle);
      } catch (err) {
        throw new AppError('UNPROCESSABLE', `The peer’s bundle does not verify: ${(err as Error).message}`);
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
      if (err instanceof PeerHasNoSuchEntry) throw new AppError('NOT_FOUND', `The peer ${name} has no ${entryId}`);
      if (err instanceof PeerForked) {
        throw new AppError(
          'CONFLICT',
          `The log of the peer ${name} forked; its bundles are not served: ${err.message}`,
        );
      }
      if (err instanceof PeerUnreachable) throw new AppError('UNAVAILABLE', `The peer ${name}: ${err.message}`);
      throw err;
    }
  });
