import { AppError, consistencyProofGet, inclusionProofGet, publicKeyGet, treeHeadGet } from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { readHead, readNodes } from '../db/audit.repo.js';
import {
  consistencyRanges,
  inclusionRanges,
  type NodeRef,
  nodeKey,
  type Range,
  rangeHash,
  rangeNodes,
} from '../domain/merkle.js';
import { keyIdOf, rawPublicKey, signTreeHead } from '../domain/tree-head.js';
import type { SigningKey } from '../signing-key.js';

/** Hashes of the given leaf ranges, from one read of the stored subtrees they are made of (proofs, certificates). */
export async function hashesOf(ctx: ServiceContext, ranges: Range[]): Promise<string[]> {
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
      keyId: keyIdOf(key.publicKey),
      signature: signTreeHead(key.privateKey, now.getTime(), head.size, head.rootHash),
    };
  });

/** transparency.public-key.get: the key that verifies tree heads (and, later, certificates). */
export const getPublicKey = (key: SigningKey) =>
  handle(publicKeyGet, async () => ({
    algorithm: 'Ed25519' as const,
    keyId: keyIdOf(key.publicKey),
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
