import canonicalize from 'canonicalize';
import type { TrustedKey } from './keys.js';
import { type BlockHeader, headerProblems, linkProblems, txProblems } from './ledger.js';
import { hash32, leafHash, sha256, verifyInclusion } from './merkle.js';
import { openNote, parseCheckpoint } from './note.js';
import { type Report, reporter } from './report.js';
import { cosignaturesOf, type WitnessPolicy } from './witness.js';

/** A public proof bundle of a ledger transaction (for a plant: its registration), as the platform serves it. */
export interface ProofBundle {
  type: string;
  plantId: string | null;
  transaction: { id: string; type: string; payload: string; payloadHash: string; timestamp: string; position: number };
  ledgerProof: { leaf: string; leafIndex: number; treeSize: number; auditPath: string[] };
  block: BlockHeader;
  previousBlock: BlockHeader | null;
  auditEntry: {
    index: number;
    leafHash: string;
    kind: string;
    entity: string | null;
    entry: unknown;
  } | null;
  auditProof: { index: number; treeSize: number; leafHash: string; auditPath: string[]; rootHash: string } | null;
  checkpoint: string | null;
}

/**
 * Verifies a proof bundle offline: the transaction's payload and leaf, its path to the block's Merkle root, the
 * block's hash and proof of work and its link to the block before, and the audit entry (recomputed from its
 * content when that is public) with its path to a checkpoint signed by a platform key.
 */
export function verifyBundle(b: ProofBundle, keys: readonly TrustedKey[], witnesses?: WitnessPolicy): Report {
  const r = reporter();
  const t = b.transaction;
  const payloadHash = sha256(Buffer.from(t.payload, 'utf8')).toString('hex');
  r.check('transaction payload hash', payloadHash === t.payloadHash);
  r.check(
    'transaction leaf is its id, type, payload hash and time',
    b.ledgerProof.leaf === `${t.id}|${t.type}|${t.payloadHash}|${t.timestamp}` &&
      b.ledgerProof.leafIndex === t.position,
  );
  r.problems('transaction in the block', txProblems({ ...b.ledgerProof, payload: t.payload }, b.block.merkleRoot));
  if (b.plantId) r.check('transaction names the plant', t.payload.includes(`"${b.plantId}"`));
  r.problems('block header and proof of work', headerProblems(b.block));
  if (b.previousBlock) {
    r.problems('previous block header and proof of work', headerProblems(b.previousBlock));
    r.problems('block links to the chain', linkProblems(b.previousBlock, b.block));
  } else {
    r.check('block is the genesis block', b.block.index === 0 && /^0{64}$/.test(b.block.previousHash));
  }
  const e = b.auditEntry;
  const p = b.auditProof;
  if (!e || !p || !b.checkpoint) {
    r.check('audit log entry', !b.plantId, 'the bundle carries no audit entry');
    return r.report();
  }
  if (e.entry) {
    const leaf = leafHash(Buffer.from(canonicalize(e.entry) as string, 'utf8')).toString('hex');
    r.check('audit entry content hashes to its leaf', leaf === e.leafHash && leaf === p.leafHash);
  } else {
    r.check('audit entry leaf', e.leafHash === p.leafHash, 'content not public: its leaf hash only');
  }
  if (b.plantId) {
    r.check('audit entry records the plant’s registration', e.kind === 'plant.registered' && e.entity === b.plantId);
  } else if (t.type.startsWith('transport.')) {
    r.check(
      'audit entry records the journey event',
      e.kind === 'transport.completed' && e.entity !== null && t.payload.includes(`"id":"${e.entity}"`),
    );
  }
  r.check(
    'audit entry in the checkpoint’s tree',
    e.index === p.index &&
      verifyInclusion(
        p.index,
        p.treeSize,
        hash32(p.leafHash, 'leaf'),
        p.auditPath.map((h) => hash32(h, 'audit path hash')),
        hash32(p.rootHash, 'root'),
      ),
  );
  try {
    const { text } = openNote(
      b.checkpoint,
      keys.map((k) => k.note),
    );
    const cp = parseCheckpoint(text);
    r.check('checkpoint signature', true);
    r.check('checkpoint is of the proof’s tree', cp.size === p.treeSize && cp.rootHash === p.rootHash);
    if (witnesses) {
      const valid = cosignaturesOf(b.checkpoint, witnesses);
      r.check(
        'checkpoint cosigned by enough witnesses',
        valid.length >= witnesses.threshold,
        `${valid.length} of ${witnesses.witnesses.length}, ${witnesses.threshold} needed`,
      );
    }
  } catch (err) {
    r.check('checkpoint signature', false, (err as Error).message);
  }
  return r.report();
}
