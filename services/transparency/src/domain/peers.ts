import { PEER_NAME_PATTERN } from '@rootline/contracts/transparency-federation';
import type { ProofBundle } from '@rootline/contracts/transparency-public';
import { verifyConsistency, verifyInclusion } from '@rootline/domain';
import {
  type Checkpoint,
  COSIGNATURE_V1,
  ED25519,
  logSignaturesThatVerify,
  type NamedKey,
  parseCheckpoint,
  parseVkey,
  splitNote,
} from './cosignature.js';
import type { WitnessPeer } from './witness-config.js';

/** Where a Rootline node serves its witness (c2sp.org/tlog-witness submission prefix), under its base URL. */
export const WITNESS_PREFIX = '/api/transparency/witness';

/** Another node this one peers with: a log it witnesses and mirrors, and a witness it asks. */
export interface Peer {
  name: string;
  /** The base URL, without a trailing slash. */
  url: string;
  /** The checkpoint origin of its log: the name of its log verifier key. */
  origin: string;
  logKey: NamedKey;
  /** The witness this node asks to cosign its own checkpoints. */
  witness: WitnessPeer;
}

const NAME = new RegExp(PEER_NAME_PATTERN, 'u');

/** PEERS: `<name> <base URL> <log vkey> <witness vkey>` entries, comma-separated. Throws on a bad entry. */
export function parsePeers(setting: string | undefined): Peer[] {
  const peers: Peer[] = [];
  for (const entry of (setting ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0)) {
    const parts = entry.split(/\s+/u);
    if (parts.length !== 4) {
      throw new Error(`PEERS: "${entry}" is not "<name> <base URL> <log verifier key> <witness verifier key>"`);
    }
    const [name, base, logVkey, witnessVkey] = parts as [string, string, string, string];
    if (!NAME.test(name)) throw new Error(`PEERS: "${name}" is not a peer name (lowercase letters, digits, dashes)`);
    if (peers.some((p) => p.name === name)) throw new Error(`PEERS: the name "${name}" is given twice`);
    let parsed: URL;
    try {
      parsed = new URL(base);
    } catch {
      throw new Error(`PEERS: ${base} is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`PEERS: ${base} is not an http(s) URL`);
    }
    const url = base.replace(/\/+$/u, '');
    const logKey = parseVkey(logVkey, ED25519);
    peers.push({
      name,
      url,
      origin: logKey.name,
      logKey,
      witness: { vkey: witnessVkey, key: parseVkey(witnessVkey, COSIGNATURE_V1), url: `${url}${WITNESS_PREFIX}` },
    });
  }
  return peers;
}

/** WITNESS_LOGS with the peers' logs added: a peer is a log this node witnesses. */
export function withPeerLogs(logs: Map<string, NamedKey[]>, peers: readonly Peer[]): Map<string, NamedKey[]> {
  const all = new Map(logs);
  for (const p of peers) {
    const keys = all.get(p.origin) ?? [];
    if (!keys.some((k) => k.id === p.logKey.id)) all.set(p.origin, [...keys, p.logKey]);
  }
  return all;
}

/** AUDIT_WITNESSES with the peers' witnesses added (each witness once): a peer is a witness this node asks. */
export function withPeerWitnesses(witnesses: readonly WitnessPeer[], peers: readonly Peer[]): WitnessPeer[] {
  const all = [...witnesses];
  for (const p of peers) if (!all.some((w) => w.vkey === p.witness.vkey)) all.push(p.witness);
  return all;
}

/** A peer's checkpoint whose signature by the peer's log key verified. */
export interface PeerCheckpoint extends Checkpoint {
  /** The note as received. */
  note: string;
}

/** Opens a peer's signed checkpoint; throws when it is malformed, of another origin or not signed by the peer. */
export function openPeerCheckpoint(peer: Peer, note: string): PeerCheckpoint {
  const { text, signatures } = splitNote(note);
  const checkpoint = parseCheckpoint(text);
  if (checkpoint.origin !== peer.origin) {
    throw new Error(`the checkpoint is of origin ${checkpoint.origin.slice(0, 200)}, not ${peer.origin}`);
  }
  if (logSignaturesThatVerify(text, signatures, [peer.logKey]).length === 0) {
    throw new Error('the checkpoint carries no valid signature by the peer’s log key');
  }
  return { ...checkpoint, note };
}

/** The checkpoint this node mirrors of a peer. */
export interface Mirrored {
  size: number;
  rootHash: string;
}

/**
 * What a newly seen, signed checkpoint of a peer means for the mirror: `advance` (a larger tree the proof shows
 * grew from the mirrored one, or the first), `same` (the mirrored checkpoint), `older` (a smaller tree the proof
 * shows is a prefix of the mirrored one: an old copy, nothing to change) or `fork` (another root at the same
 * size, or a proof that does not verify: two histories signed by the peer).
 */
export type MirrorVerdict =
  | { outcome: 'advance' }
  | { outcome: 'same' }
  | { outcome: 'older' }
  | { outcome: 'fork'; reason: string };

/** The consistency proof the judgement needs, from the smaller to the larger size; null when it needs none. */
export function proofNeeded(mirrored: Mirrored | null, seen: Checkpoint): { first: number; second: number } | null {
  if (!mirrored || mirrored.size === seen.size) return null;
  const [first, second] = mirrored.size < seen.size ? [mirrored.size, seen.size] : [seen.size, mirrored.size];
  return first === 0 ? null : { first, second };
}

/** Judges a verified checkpoint of a peer against the mirrored one, with the consistency proof `proofNeeded` named. */
export function judgeMirror(mirrored: Mirrored | null, seen: Checkpoint, proof: readonly Buffer[]): MirrorVerdict {
  if (!mirrored) return { outcome: 'advance' };
  const held = Buffer.from(mirrored.rootHash, 'hex');
  const root = Buffer.from(seen.rootHash, 'hex');
  if (seen.size === mirrored.size) {
    return seen.rootHash === mirrored.rootHash
      ? { outcome: 'same' }
      : {
          outcome: 'fork',
          reason: `another root at size ${seen.size}: ${seen.rootHash}, mirrored ${mirrored.rootHash}`,
        };
  }
  if (seen.size > mirrored.size) {
    return verifyConsistency(mirrored.size, seen.size, held, root, proof)
      ? { outcome: 'advance' }
      : { outcome: 'fork', reason: `size ${seen.size} is not consistent with the mirrored size ${mirrored.size}` };
  }
  return verifyConsistency(seen.size, mirrored.size, root, held, proof)
    ? { outcome: 'older' }
    : { outcome: 'fork', reason: `size ${seen.size} is not a prefix of the mirrored size ${mirrored.size}` };
}

/**
 * Checks a peer's proof bundle of `entryId` on its own: it is the bundle asked for, its audit entry is the one its
 * audit proof names, the proof leads to the root of its checkpoint, and the checkpoint is the peer's, signed by its
 * log key. Answers that checkpoint (to be related to the mirror); throws with the reason otherwise.
 */
export function checkPeerBundle(peer: Peer, entryId: string, bundle: ProofBundle): PeerCheckpoint {
  const asked = entryId.startsWith('plt_') ? bundle.plantId : bundle.transaction.id;
  if (asked !== entryId) throw new Error(`the peer answered the bundle of ${String(asked).slice(0, 60)}`);
  const { auditEntry, auditProof, checkpoint } = bundle;
  if (!auditEntry || !auditProof || !checkpoint) {
    throw new Error(
      'the bundle has no audit entry in the peer’s log (only a plant’s registration and a journey event have one)',
    );
  }
  if (auditEntry.index !== auditProof.index || auditEntry.leafHash !== auditProof.leafHash) {
    throw new Error('the audit entry is not the one its proof is of');
  }
  const signed = openPeerCheckpoint(peer, checkpoint);
  if (signed.size !== auditProof.treeSize || signed.rootHash !== auditProof.rootHash) {
    throw new Error('the audit proof is not of the bundle’s checkpoint');
  }
  const path = auditProof.auditPath.map((h) => Buffer.from(h, 'hex'));
  const leaf = Buffer.from(auditProof.leafHash, 'hex');
  if (!verifyInclusion(auditProof.index, auditProof.treeSize, leaf, path, Buffer.from(signed.rootHash, 'hex'))) {
    throw new Error('the audit proof does not lead to the checkpoint’s root');
  }
  return signed;
}
