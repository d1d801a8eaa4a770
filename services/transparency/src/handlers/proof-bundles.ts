import {
  type CallContext,
  chainBlockGet,
  chainTxProof,
  declaredEvents,
  type ProofBundle,
  plantGet,
  plantProofBundleGet,
  txProofBundleGet,
} from '@rootline/contracts';
import { inclusionRanges } from '@rootline/domain';
import { call, handle, ledgerTxId, type ServiceContext } from '@rootline/host';
import type { SigningKey } from '../adapters/signing-key.js';
import { getEntry, readHead } from '../db/audit.repo.js';
import { firstEntryAbout } from '../db/certificates.repo.js';
import { cosignaturesOf } from '../db/witness.repo.js';
import { publicEntryOf } from '../domain/public-entry.js';
import { checkpointOf, hashesOf } from './proofs.js';

type BlockHeader = ProofBundle['block'];
const headerOf = (b: BlockHeader): BlockHeader => ({
  index: b.index,
  hash: b.hash,
  timestamp: b.timestamp,
  previousHash: b.previousHash,
  merkleRoot: b.merkleRoot,
  difficulty: b.difficulty,
  nonce: b.nonce,
});

/** The plant a transaction registered, from its payload (`plant.register`…), if any. */
function plantOf(type: string, payload: string): string | null {
  if (!type.startsWith('plant.')) return null;
  const id = (JSON.parse(payload) as { plantId?: unknown }).plantId;
  return typeof id === 'string' ? id : null;
}

/** The journey event a `transport.<kind>` transaction records (its id derives from the event's), if any. */
function journeyEventOf(txId: string, type: string, payload: string): string | null {
  if (!type.startsWith('transport.')) return null;
  const id = (JSON.parse(payload) as { id?: unknown }).id;
  return typeof id === 'string' && ledgerTxId(id) === txId ? id : null;
}

/**
 * The audit entry recording a transaction's subject (a plant's registration, `plant.registered`; a journey event,
 * `transport.completed`) in public form, its inclusion proof in the current tree and that tree's checkpoint.
 */
async function auditPart(ctx: ServiceContext, key: SigningKey, origin: string, kind: string, entity: string) {
  const found = await firstEntryAbout(ctx.db, kind, entity);
  const entry = found && (await getEntry(ctx.db, found.index));
  if (!found || !entry) return { auditEntry: null, auditProof: null, checkpoint: null };
  const bySubject = new Map(declaredEvents().map((e) => [e.subject, e]));
  const head = await readHead(ctx.db);
  const [root, ...auditPath] = await hashesOf(ctx, [
    { lo: 0, hi: head.size },
    ...inclusionRanges(found.index, head.size),
  ]);
  return {
    auditEntry: publicEntryOf(entry.entry, entry.leafHash, bySubject.get(entry.entry.subject)),
    auditProof: { index: found.index, treeSize: head.size, leafHash: found.leafHash, auditPath, rootHash: root! },
    // With the witnesses' cosignatures of that checkpoint, when it has them (ADR 282).
    checkpoint:
      checkpointOf(key, origin, head.size, root!).note + (await cosignaturesOf(ctx.db, head.size, root!)).join(''),
  };
}

/** The proof bundle of a ledger transaction (ADR 122). */
async function bundleOf(
  ctx: ServiceContext,
  key: SigningKey,
  origin: string,
  txId: string,
  caller: CallContext,
): Promise<ProofBundle> {
  const proof = await call(ctx.bus, chainTxProof, { txId }, caller);
  const block = await call(ctx.bus, chainBlockGet, { hash: proof.blockHash }, caller);
  const tx = block.transactions.find((t) => t.id === txId);
  if (!tx) throw new Error(`transaction ${txId} is not in block ${block.hash}`);
  const previous = block.index === 0 ? null : await call(ctx.bus, chainBlockGet, { hash: block.previousHash }, caller);
  const plantId = plantOf(tx.type, tx.payload);
  const eventId = journeyEventOf(tx.id, tx.type, tx.payload);
  const audit =
    plantId && tx.type === 'plant.register'
      ? await auditPart(ctx, key, origin, 'plant.registered', plantId)
      : eventId
        ? await auditPart(ctx, key, origin, 'transport.completed', eventId)
        : null;
  return {
    type: 'rootline.proof-bundle',
    version: 1,
    plantId,
    transaction: {
      id: tx.id,
      type: tx.type,
      payload: tx.payload,
      payloadHash: tx.payloadHash,
      timestamp: tx.timestamp,
      position: tx.position,
    },
    ledgerProof: {
      leaf: proof.leaf,
      leafIndex: proof.leafIndex,
      treeSize: proof.treeSize,
      auditPath: proof.auditPath,
    },
    block: headerOf(block),
    previousBlock: previous && headerOf(previous),
    auditEntry: audit?.auditEntry ?? null,
    auditProof: audit?.auditProof ?? null,
    checkpoint: audit?.checkpoint ?? null,
  };
}

/** transparency.proof-bundle.plant: the proof bundle of the transaction that registered a plant. */
export const getPlantProofBundle = (ctx: ServiceContext, key: SigningKey, origin: string) =>
  handle(plantProofBundleGet, async ({ plantId }, caller) => {
    const plant = await call(ctx.bus, plantGet, { plantId }, caller);
    return bundleOf(ctx, key, origin, plant.block.txId, caller);
  });

/** transparency.proof-bundle.transaction: the proof bundle of any ledger transaction. */
export const getTxProofBundle = (ctx: ServiceContext, key: SigningKey, origin: string) =>
  handle(txProofBundleGet, async ({ txId }, caller) => bundleOf(ctx, key, origin, txId, caller));
