import { verify } from 'node:crypto';
import canonicalize from 'canonicalize';
import { type TrustedKey, validAt } from './keys.js';
import { type BlockHeader, headerProblems, type TxProof, txProblems } from './ledger.js';
import { hash32, verifyInclusion } from './merkle.js';
import { type Report, reporter } from './report.js';

/** A signed certificate of authenticity as the platform issues it (the JSON, or the one a PDF embeds). */
export interface SignedCertificate {
  certificate: {
    type: string;
    issuedAt: string;
    plant: { id: string };
    block: BlockHeader;
    ledgerProof: TxProof & { txId: string };
    auditLog: {
      index: number;
      leafHash: string;
      treeSize: number;
      rootHash: string;
      auditPath: string[];
      treeHead: { timestampMs: number; signature: string };
    } | null;
    keyId: string;
    certificateId?: string;
  };
  signature: { algorithm: string; keyId: string; value: string };
}

/** A revocation as the signed revocation list gives it. */
export interface Revocation {
  certificateId: string;
  plantId: string;
  revokedAt: string;
  reason: string;
  auditIndex: number;
}

/** The platform's signed list of revoked certificates. */
export interface SignedRevocationList {
  list: { type: string; issuedAt: string; keyId: string; revocations: Revocation[]; checkpoint: string };
  signature: { algorithm: string; keyId: string; value: string };
}

/** Whether the list is signed by a platform key that was in use when it was issued. */
export function revocationListSigned(signed: SignedRevocationList, keys: readonly TrustedKey[]): boolean {
  const key = keys.find((k) => k.keyId === signed.signature.keyId);
  if (!key || signed.list.keyId !== key.keyId || !validAt(key, signed.list.issuedAt)) return false;
  const bytes = Buffer.from(canonicalize(signed.list) as string, 'utf8');
  return verify(null, bytes, key.key, Buffer.from(signed.signature.value, 'base64'));
}

/** RFC 6962 §3.5 TreeHeadSignature bytes. */
export function treeHeadBytes(timestampMs: number, treeSize: number, rootHash: string): Buffer {
  const out = Buffer.alloc(50);
  out[0] = 0;
  out[1] = 1;
  out.writeBigUInt64BE(BigInt(timestampMs), 2);
  out.writeBigUInt64BE(BigInt(treeSize), 10);
  hash32(rootHash, 'tree head root').copy(out, 18);
  return out;
}

/**
 * Verifies a certificate offline against the platform's key set: its signature by a key that was in use when it was
 * issued, the ledger block's proof of work, the registration's path to the block, the audit entry's path to the
 * signed tree head, and (given the signed revocation list) that it was not revoked.
 */
export function verifyCertificate(
  signed: SignedCertificate,
  keys: readonly TrustedKey[],
  revocationList?: SignedRevocationList,
): Report {
  const r = reporter();
  const c = signed.certificate;
  const key = keys.find((k) => k.keyId === signed.signature.keyId);
  if (!r.check('signing key is a published platform key', key !== undefined, signed.signature.keyId)) {
    return r.report();
  }
  const k = key as TrustedKey;
  const bytes = Buffer.from(canonicalize(c) as string, 'utf8');
  r.check(
    'certificate signature',
    c.keyId === k.keyId && verify(null, bytes, k.key, Buffer.from(signed.signature.value, 'base64')),
  );
  r.check(
    'issued while its key was in use',
    validAt(k, c.issuedAt),
    `${c.issuedAt}, key ${k.validFrom}–${k.validUntil ?? 'now'}`,
  );
  r.problems('ledger block header and proof of work', headerProblems(c.block));
  r.problems('registration transaction in the block', txProblems(c.ledgerProof, c.block.merkleRoot));
  r.check('transaction names the plant', c.ledgerProof.payload.includes(`"${c.plant.id}"`));
  const a = c.auditLog;
  if (a) {
    r.check(
      'audit entry in the signed tree',
      verifyInclusion(
        a.index,
        a.treeSize,
        hash32(a.leafHash, 'leaf'),
        a.auditPath.map((h) => hash32(h, 'audit path hash')),
        hash32(a.rootHash, 'root'),
      ),
    );
    r.check(
      'tree head signature',
      verify(
        null,
        treeHeadBytes(a.treeHead.timestampMs, a.treeSize, a.rootHash),
        k.key,
        Buffer.from(a.treeHead.signature, 'base64'),
      ),
    );
  }
  if (revocationList) {
    r.check('revocation list signature', revocationListSigned(revocationList, keys), revocationList.list.issuedAt);
    const revoked = c.certificateId
      ? revocationList.list.revocations.find((x) => x.certificateId === c.certificateId)
      : undefined;
    r.check(
      'not revoked',
      revoked === undefined,
      revoked ? `REVOKED on ${revoked.revokedAt}: ${revoked.reason}` : undefined,
    );
  }
  return r.report();
}
