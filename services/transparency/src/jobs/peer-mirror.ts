import type { Agent } from 'node:http';
import { ProofBundle } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { Clock, Logger } from '@rootline/host';
import { Value } from '@sinclair/typebox/value';
import { getFromPeer } from '../adapters/peer-client.js';
import { lockPeer, type PeerRow, readPeer, savePeer } from '../db/federation.repo.js';
import {
  judgeMirror,
  type Mirrored,
  openPeerCheckpoint,
  type Peer,
  type PeerCheckpoint,
  proofNeeded,
} from '../domain/peers.js';
import { createPeerLoops } from './peer-loops.js';

export interface PeerMirrorOptions {
  db: Db;
  log: Logger;
  clock: Clock;
  peers: readonly Peer[];
  pollMs: number;
  timeoutMs: number;
  agent?: Agent | undefined;
}

/** A peer that did not answer, or answered what is not what it should serve. */
export class PeerUnreachable extends Error {}
/** A peer whose log this node has seen fork. */
export class PeerForked extends Error {}
/** A peer that answered 404 for a bundle. */
export class PeerHasNoSuchEntry extends Error {}

/** What observing a checkpoint of a peer came to, and the mirrored checkpoint after it. */
export interface Observed {
  outcome: 'advance' | 'same' | 'older';
  mirrored: Mirrored;
}

const HASHES = /^[0-9a-f]{64}$/u;

/**
 * The mirror of the peers' logs: one loop per peer fetches its checkpoint, verifies the peer's signature and the
 * consistency with what was mirrored before (fetching the proof from the peer), and keeps the latest; a
 * checkpoint inconsistent with the mirror marks the peer `fork` for good. Bundles asked for are checked the same
 * way, their checkpoint being one more checkpoint of the peer.
 */
export function createPeerMirror(o: PeerMirrorOptions) {
  async function get(peer: Peer, path: string) {
    try {
      return await getFromPeer(`${peer.url}${path}`, {
        timeoutMs: o.timeoutMs,
        agent: o.agent,
        signal: loops.signal,
      });
    } catch (err) {
      throw new PeerUnreachable(`not reached: ${(err as Error).message}`);
    }
  }

  /** The consistency proof between two sizes of the peer's log, as the peer serves it. */
  async function proof(peer: Peer, first: number, second: number): Promise<Buffer[]> {
    const answer = await get(peer, `/api/transparency/audit/consistency?first=${first}&second=${second}`);
    if (answer.status !== 200) throw new PeerUnreachable(`the consistency proof ${first}→${second}: ${answer.status}`);
    let hashes: unknown;
    try {
      hashes = (JSON.parse(answer.body) as { data?: { proof?: unknown } }).data?.proof;
    } catch {
      throw new PeerUnreachable('the consistency proof is not JSON');
    }
    if (!Array.isArray(hashes) || hashes.length > 64 || !hashes.every((h) => typeof h === 'string' && HASHES.test(h))) {
      throw new PeerUnreachable('the consistency proof is not a list of hashes');
    }
    return hashes.map((h: string) => Buffer.from(h, 'hex'));
  }

  const blank = (peer: Peer): PeerRow => ({
    name: peer.name,
    origin: peer.origin,
    state: 'pending',
    size: null,
    rootHash: null,
    note: null,
    verifiedAt: null,
    checkedAt: null,
    problem: null,
    forkNote: null,
  });
  const mirroredOf = (row: PeerRow | null): Mirrored | null =>
    row?.size != null && row.rootHash ? { size: row.size, rootHash: row.rootHash } : null;

  /**
   * Relates a checkpoint of the peer (signature verified) to the mirror under the peer's lock, and records what it
   * came to. Throws PeerForked when it is inconsistent with the mirror (or the peer forked before).
   */
  async function observe(peer: Peer, seen: PeerCheckpoint): Promise<Observed> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = await readPeer(o.db, peer.name, peer.origin);
      if (before?.state === 'fork') throw new PeerForked(before.problem ?? 'the peer’s log forked');
      const need = proofNeeded(mirroredOf(before), seen);
      // The proof is fetched outside the transaction: a slow peer holds no database connection.
      const hashes = need ? await proof(peer, need.first, need.second) : [];
      const result = await o.db.transaction(async (tx) => {
        await lockPeer(tx, peer.name);
        const row = await readPeer(tx, peer.name, peer.origin);
        const held = mirroredOf(row);
        if (row?.state === 'fork') return { fork: row.problem ?? 'the peer’s log forked' };
        const prior = mirroredOf(before);
        if (held?.size !== prior?.size || held?.rootHash !== prior?.rootHash) return null;
        const now = o.clock.now().toISOString();
        const base = row ?? blank(peer);
        const verdict = judgeMirror(held, seen, hashes);
        if (verdict.outcome === 'fork') {
          await savePeer(tx, { ...base, state: 'fork', checkedAt: now, problem: verdict.reason, forkNote: seen.note });
          return { fork: verdict.reason };
        }
        if (verdict.outcome === 'older') {
          await savePeer(tx, { ...base, state: 'ok', checkedAt: now, problem: null });
          return { outcome: verdict.outcome, mirrored: held! };
        }
        // A larger tree, or the same one (its note may carry more cosignatures now).
        await savePeer(tx, {
          ...base,
          state: 'ok',
          size: seen.size,
          rootHash: seen.rootHash,
          note: seen.note,
          verifiedAt: verdict.outcome === 'advance' ? now : (base.verifiedAt ?? now),
          checkedAt: now,
          problem: null,
        });
        return { outcome: verdict.outcome, mirrored: { size: seen.size, rootHash: seen.rootHash } };
      });
      if (result === null) continue; // The mirror moved while the proof was fetched: judge again.
      if ('fork' in result) throw new PeerForked(result.fork);
      return result as Observed;
    }
    throw new PeerUnreachable('the mirror kept moving; try again');
  }

  /** Records that the peer could not be reached or served what does not verify (a fork stays a fork). */
  async function unreachable(peer: Peer, problem: string): Promise<void> {
    await o.db.transaction(async (tx) => {
      await lockPeer(tx, peer.name);
      const row = (await readPeer(tx, peer.name, peer.origin)) ?? blank(peer);
      if (row.state === 'fork') return;
      await savePeer(tx, { ...row, state: 'unreachable', checkedAt: o.clock.now().toISOString(), problem });
    });
  }

  /** Fetches the peer's checkpoint, verifies it and brings the mirror up to it. */
  async function sync(peer: Peer): Promise<Observed | 'fork' | 'unreachable'> {
    try {
      const answer = await get(peer, '/api/transparency/log/checkpoint');
      if (answer.status !== 200) throw new PeerUnreachable(`the checkpoint: HTTP ${answer.status}`);
      let seen: PeerCheckpoint;
      try {
        seen = openPeerCheckpoint(peer, answer.body);
      } catch (err) {
        throw new PeerUnreachable(`the checkpoint does not verify: ${(err as Error).message}`);
      }
      return await observe(peer, seen);
    } catch (err) {
      if (err instanceof PeerForked) {
        o.log.error({ peer: peer.name, problem: err.message }, 'peer mirror: the peer’s log forked');
        return 'fork';
      }
      if (!(err instanceof PeerUnreachable)) throw err;
      // A request cut by a shutdown says nothing about the peer.
      if (!loops.signal.aborted) await unreachable(peer, err.message.slice(0, 500));
      return 'unreachable';
    }
  }

  /** The peer's proof bundle of a plant (`plt_…`) or transaction (`tx_…`), as it serves it, checked for shape. */
  async function fetchBundle(peer: Peer, entryId: string): Promise<ProofBundle> {
    const path = entryId.startsWith('plt_') ? `plants/${entryId}` : `transactions/${entryId}`;
    const answer = await get(peer, `/api/transparency/proofs/${path}`);
    if (answer.status === 404) throw new PeerHasNoSuchEntry(`the peer has no ${entryId}`);
    if (answer.status !== 200) throw new PeerUnreachable(`the bundle: HTTP ${answer.status}`);
    let bundle: unknown;
    try {
      bundle = (JSON.parse(answer.body) as { data?: unknown }).data;
    } catch {
      throw new PeerUnreachable('the bundle is not JSON');
    }
    if (!Value.Check(ProofBundle, bundle)) throw new PeerUnreachable('the bundle is not a proof bundle');
    return bundle;
  }

  const loops = createPeerLoops({
    peers: o.peers,
    pollMs: o.pollMs,
    work: sync,
    failed: (peer, err) => o.log.warn({ peer: peer.name, err: err.message }, 'peer mirror: failed'),
  });

  return {
    sync,
    observe,
    fetchBundle,
    async start() {
      loops.start();
    },
    stop: () => loops.stop(),
  };
}

export type PeerMirror = ReturnType<typeof createPeerMirror>;
