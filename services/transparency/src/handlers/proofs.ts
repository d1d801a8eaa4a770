import { createPublicKey } from 'node:crypto';
import {
  AppError,
  checkpointGet,
  consistencyProofGet,
  inclusionProofGet,
  platformKeysGet,
  publicKeyGet,
  treeHeadGet,
} from '@rootline/contracts';
import {
  consistencyRanges,
  inclusionRanges,
  type LeafRange,
  type NodeRef,
  nodeKey,
  rangeHash,
  rangeNodes,
} from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import type { SigningKey } from '../adapters/signing-key.js';
import { readHead, readNodes } from '../db/audit.repo.js';
import { listPlatformKeys } from '../db/platform-keys.repo.js';
import { cosignaturesOf } from '../db/witness.repo.js';
import { checkpointText, noteKeyId, signNote, verifierKey } from '../domain/signed-note.js';
import { rawPublicKey, signTreeHead } from '../domain/tree-head.js';

/** Hashes of the given leaf ranges, from one read of the stored subtrees they are made of (proofs, certificates). */
export async function hashesOf(ctx: ServiceContext, ranges: LeafRange[]): Promise<string[]> {
  const refs: NodeRef[] = ranges.flatMap(rangeNodes);
  const nodes = await readNodes(ctx.db, refs);
  const lookup = (ref: NodeRef) => {
    const hash = nodes.get(nodeKey(ref));
    if (!hash) throw new Error(`Merkle node ${nodeKey(ref)} is missing`);
    return hash;
  };
  return ranges.map((r) => rangeHash(r, lookup));
}

function sizeWithin(size: number, current: number, name: string): void {
  if (size > current) {
    throw new AppError('VALIDATION_ERROR', `${name}: the log holds ${current} entries, not ${size}`);
  }
}

/** transparency.tree-head.get: the current size and root, signed now. */
export const getTreeHead = (ctx: ServiceContext, key: SigningKey) =>
  handle(treeHeadGet, async () => {
    const head = await readHead(ctx.db);
    const now = ctx.clock.now();
    return {
      treeSize: head.size,
      timestamp: now.toISOString(),
      timestampMs: now.getTime(),
      rootHash: head.rootHash,
      algorithm: 'Ed25519' as const,
      keyId: key.keyId,
      signature: signTreeHead(key.privateKey, now.getTime(), head.size, head.rootHash),
    };
  });

/** transparency.public-key.get: the key that verifies tree heads (and, later, certificates). */
export const getPublicKey = (key: SigningKey) =>
  handle(publicKeyGet, async () => ({
    algorithm: 'Ed25519' as const,
    keyId: key.keyId,
    publicKey: rawPublicKey(key.publicKey).toString('base64'),
    publicKeyPem: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  }));

/** transparency.inclusion-proof.get: RFC 6962 audit path of entry `index` in the tree of `treeSize` entries. */
export const getInclusionProof = (ctx: ServiceContext) =>
  handle(inclusionProofGet, async ({ index, treeSize }) => {
    const head = await readHead(ctx.db);
    const size = treeSize ?? head.size;
    sizeWithin(size, head.size, 'treeSize');
    if (index >= size) throw new AppError('NOT_FOUND', `Audit entry ${index} is not in a tree of ${size} entries`);
    const ranges = inclusionRanges(index, size);
    const [leaf, root, ...path] = await hashesOf(ctx, [{ lo: index, hi: index + 1 }, { lo: 0, hi: size }, ...ranges]);
    return { index, treeSize: size, leafHash: leaf!, auditPath: path, rootHash: root! };
  });

/** transparency.consistency-proof.get: RFC 6962 proof that the tree of `first` entries is a prefix of `second`'s. */
export const getConsistencyProof = (ctx: ServiceContext) =>
  handle(consistencyProofGet, async ({ first, second }) => {
    const head = await readHead(ctx.db);
    const size = second ?? head.size;
    sizeWithin(size, head.size, 'second');
    if (first > size) throw new AppError('VALIDATION_ERROR', `first: ${first} is larger than second (${size})`);
    const [firstRoot, secondRoot, ...proof] = await hashesOf(ctx, [
      { lo: 0, hi: first },
      { lo: 0, hi: size },
      ...consistencyRanges(first, size),
    ]);
    return { firstSize: first, secondSize: size, firstRootHash: firstRoot!, secondRootHash: secondRoot!, proof };
  });

/** The checkpoint of a tree as a signed note (Ed25519 is deterministic: one size, one note). */
export function checkpointOf(key: SigningKey, origin: string, treeSize: number, rootHash: string) {
  return {
    origin,
    treeSize,
    rootHash,
    keyId: key.keyId,
    noteKeyId: noteKeyId(origin, key.publicKey).toString('hex'),
    note: signNote(checkpointText(origin, treeSize, rootHash), origin, key.privateKey, key.publicKey),
  };
}

/** transparency.checkpoint.get: the current size and root as a C2SP checkpoint, signed, with the cosignatures held. */
export const getCheckpoint = (ctx: ServiceContext, key: SigningKey, origin: string) =>
  handle(checkpointGet, async () => {
    const head = await readHead(ctx.db);
    const checkpoint = checkpointOf(key, origin, head.size, head.rootHash);
    // Witnesses' cosignatures of this very checkpoint are further signature lines of the one note.
    const cosignatures = await cosignaturesOf(ctx.db, head.size, head.rootHash);
    return { ...checkpoint, note: checkpoint.note + cosignatures.join('') };
  });

/** transparency.platform-keys.get: every key the platform has signed with, with its validity. */
export const getPlatformKeys = (ctx: ServiceContext, origin: string) =>
  handle(platformKeysGet, async () => {
    const rows = await listPlatformKeys(ctx.db);
    return {
      items: rows.map((r) => {
        const publicKey = createPublicKey(r.publicKeyPem);
        return {
          keyId: r.keyId,
          algorithm: 'Ed25519' as const,
          publicKey: rawPublicKey(publicKey).toString('base64'),
          publicKeyPem: r.publicKeyPem,
          noteKeyName: origin,
          noteKeyId: noteKeyId(origin, publicKey).toString('hex'),
          verifierKey: verifierKey(origin, publicKey),
          validFrom: r.validFrom,
          validUntil: r.validUntil,
          status: r.validUntil === null ? ('current' as const) : ('retired' as const),
        };
      }),
    };
  });
