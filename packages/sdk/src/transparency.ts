import canonicalize from 'canonicalize';
import { type CryptoKey, concat, fromBase64, fromHex, sha256, toHex, utf8 } from './bytes.js';
import type { paths } from './generated/schema.js';

// Offline checks of what the transparency service signs and proves (docs/transparency.md): certificates of
// authenticity (Ed25519 over RFC 8785 canonical JSON) and RFC 6962 / RFC 9162 inclusion proofs.

type JsonOf<P extends keyof paths, M extends 'get'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : never;

/** `GET /api/transparency/certificate/{plantId}`: the certificate and the platform's signature of it. */
export type SignedCertificate = JsonOf<'/api/transparency/certificate/{plantId}', 'get'>;
/** `GET /api/transparency/audit/public-key`: the platform's Ed25519 key, raw (base64) and PEM. */
export type PlatformPublicKey = JsonOf<'/api/transparency/audit/public-key', 'get'>;

/** `GET /api/transparency/audit/tree-head`: the log's size and root, signed now. */
export type SignedTreeHead = JsonOf<'/api/transparency/audit/tree-head', 'get'>;

/** The verdict of a check: valid when nothing was found wrong, with every problem found otherwise. */
export interface Verification {
  valid: boolean;
  problems: string[];
}

/**
 * An inclusion proof: the leaf at `index` of a tree of `treeSize` leaves, with `auditPath` (RFC 6962 PATH, nearest
 * the leaf first) leading to `rootHash`. The leaf is given by its hash (`leafHash`, hex, as the audit log's proofs
 * carry it) or by its data (`leaf`, hashed as SHA-256(0x00 ‖ UTF-8 bytes), as the ledger's proofs carry it).
 */
export interface InclusionProof {
  index: number;
  treeSize: number;
  leafHash?: string;
  leaf?: string;
  auditPath: readonly string[];
  rootHash: string;
}

const verdict = (problems: string[]): Verification => ({ valid: problems.length === 0, problems });

/** RFC 6962 leaf hash: SHA-256(0x00 ‖ leaf). */
export async function leafHash(leaf: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await sha256(concat(Uint8Array.of(0), leaf)));
}

const node = (left: Uint8Array, right: Uint8Array) => sha256(concat(Uint8Array.of(1), left, right));

/** RFC 9162 §2.1.3.2: the root (hex) the path leads to from the leaf, or null when the path does not fit the tree. */
export async function rootFromPath(
  index: number,
  treeSize: number,
  leaf: Uint8Array,
  path: readonly Uint8Array[],
): Promise<string | null> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(treeSize) || index < 0 || index >= treeSize) return null;
  // Sizes can pass 2^31, so halve by division, not with bit shifts.
  let fn = index;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await node(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await node(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? toHex(r) : null;
}

/** Checks an inclusion proof (audit log or ledger): the path from the leaf leads to `rootHash`. */
export async function verifyInclusion(proof: InclusionProof): Promise<Verification> {
  const problems: string[] = [];
  const leaf =
    proof.leafHash !== undefined
      ? fromHex(proof.leafHash)
      : proof.leaf !== undefined
        ? fromHex(await leafHash(utf8(proof.leaf)))
        : null;
  const path = proof.auditPath.map(fromHex);
  if (leaf?.length !== 32) problems.push('the leaf hash is not 32 bytes of hex (or no leaf is given)');
  if (path.some((p) => p?.length !== 32)) problems.push('an auditPath entry is not 32 bytes of hex');
  if (problems.length > 0) return verdict(problems);
  const root = await rootFromPath(proof.index, proof.treeSize, leaf!, path as Uint8Array[]);
  if (root === null) problems.push(`the auditPath does not fit leaf ${proof.index} of a tree of ${proof.treeSize}`);
  else if (root !== proof.rootHash.toLowerCase()) problems.push('the auditPath does not lead to rootHash');
  return verdict(problems);
}

/** What `verifyCertificate` takes as the platform key: its answer, the raw key (base64), a PEM or a CryptoKey. */
export type PublicKeyInput = PlatformPublicKey | string | CryptoKey;

/** The Ed25519 public key as a CryptoKey, and its raw bytes when known (for the key id). */
export async function importPublicKey(key: PublicKeyInput): Promise<{ key: CryptoKey; raw: Uint8Array | null }> {
  if (typeof key === 'object' && 'publicKey' in key) return importPublicKey(key.publicKey);
  if (typeof key !== 'string') {
    const raw = key.extractable ? new Uint8Array(await crypto.subtle.exportKey('raw', key)) : null;
    return { key, raw };
  }
  if (key.includes('-----BEGIN')) {
    const der = fromBase64(key.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, ''));
    if (!der) throw new Error('The PEM public key is not base64');
    const cryptoKey = await crypto.subtle.importKey('spki', der, { name: 'Ed25519' }, true, ['verify']);
    return { key: cryptoKey, raw: der.subarray(der.length - 32) };
  }
  const raw = fromBase64(key);
  if (raw?.length !== 32) throw new Error('The raw Ed25519 public key must be 32 bytes of base64');
  return { key: await crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, true, ['verify']), raw };
}

/** RFC 6962 §3.5 TreeHeadSignature bytes: v1, tree_hash, timestamp ms and tree size (uint64 BE), root hash. */
function treeHeadBytes(timestampMs: number, treeSize: number, rootHash: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(50);
  const view = new DataView(out.buffer);
  out[0] = 0;
  out[1] = 1;
  view.setBigUint64(2, BigInt(timestampMs));
  view.setBigUint64(10, BigInt(treeSize));
  out.set(rootHash, 18);
  return out;
}

/**
 * The leaf hash of an audit log entry from its content: SHA-256(0x00 ‖ UTF-8 of the RFC 8785 canonical JSON of the
 * entry), the bytes the log hashed. Compare it with the entry's `leafHash` to tie what is shown to what is proven.
 */
export async function auditEntryLeafHash(entry: unknown): Promise<string> {
  const canonical = canonicalize(entry);
  if (canonical === undefined) throw new Error('The entry cannot be written as canonical JSON');
  return leafHash(utf8(canonical));
}

/**
 * Verifies a signed tree head: the Ed25519 signature over its RFC 6962 TreeHeadSignature bytes (timestamp, size,
 * root) by `publicKey`, and, when the key's raw bytes are known, that the head names that key (`keyId`).
 */
export async function verifyTreeHead(
  head: Pick<SignedTreeHead, 'timestampMs' | 'treeSize' | 'rootHash' | 'signature'> & { keyId?: string },
  publicKey: PublicKeyInput,
): Promise<Verification> {
  const problems: string[] = [];
  const { key, raw } = await importPublicKey(publicKey);
  const root = fromHex(head.rootHash);
  const signature = fromBase64(head.signature);
  const bytes = root?.length === 32 ? treeHeadBytes(head.timestampMs, head.treeSize, root) : null;
  if (!bytes || !signature || !(await crypto.subtle.verify('Ed25519', key, signature, bytes))) {
    problems.push('the tree head signature does not verify');
  }
  if (raw && head.keyId !== undefined && head.keyId !== toHex(await sha256(new Uint8Array(raw)))) {
    problems.push('the tree head names another key');
  }
  return verdict(problems);
}

/** Leading zero bits of a hash. */
function leadingZeroBits(hash: Uint8Array): number {
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/**
 * Verifies a certificate of authenticity offline, every step of docs/transparency.md: the platform's Ed25519
 * signature over the canonical JSON of `certificate` (and that the key is the one the certificate names); the
 * registration payload hashes into the transaction's leaf, which names the transaction and the plant; the ledger
 * proof leads to the block's Merkle root; the block header hashes to `block.hash` with its difficulty's leading
 * zero bits; the audit log proof leads to its root, whose tree head the platform signed. A certificate issued in the
 * moments before the audit log recorded the registration (`auditLog: null`) is reported as not yet provable there.
 */
export async function verifyCertificate(signed: SignedCertificate, publicKey: PublicKeyInput): Promise<Verification> {
  const problems: string[] = [];
  const { certificate, signature } = signed;
  const { key, raw } = await importPublicKey(publicKey);

  // 1. The signature, by the key the certificate names.
  const canonical = canonicalize(certificate);
  const value = fromBase64(signature.value);
  if (signature.algorithm !== 'Ed25519') problems.push(`unknown signature algorithm ${signature.algorithm}`);
  if (!canonical || !value || !(await crypto.subtle.verify('Ed25519', key, value, utf8(canonical)))) {
    problems.push('the signature does not verify over the certificate');
  }
  if (raw) {
    const keyId = toHex(await sha256(new Uint8Array(raw)));
    if (certificate.keyId !== keyId || signature.keyId !== keyId) problems.push('the certificate names another key');
  }

  // 2. The registration: its hash is the leaf's third field, the leaf names the transaction, the payload the plant.
  const proof = certificate.ledgerProof;
  const [txId, , payloadHash] = proof.leaf.split('|');
  if (toHex(await sha256(utf8(proof.payload))) !== payloadHash) {
    problems.push('the registration payload does not hash to the leaf');
  }
  if (txId !== proof.txId) problems.push('the leaf names another transaction');
  let plantId: unknown;
  try {
    plantId = (JSON.parse(proof.payload) as { plantId?: unknown }).plantId;
  } catch {
    plantId = undefined;
  }
  if (plantId !== certificate.plant.id) problems.push('the registration is of another plant');

  // 3. The transaction is in the block.
  const inBlock = await verifyInclusion({
    index: proof.leafIndex,
    treeSize: proof.treeSize,
    leaf: proof.leaf,
    auditPath: proof.auditPath,
    rootHash: certificate.block.merkleRoot,
  });
  for (const p of inBlock.problems) problems.push(`ledger proof: ${p}`);

  // 4. The block header.
  const b = certificate.block;
  const header = await sha256(
    utf8(`${b.index}|${b.timestamp}|${b.previousHash}|${b.merkleRoot}|${b.difficulty}|${b.nonce}`),
  );
  if (toHex(header) !== b.hash) problems.push('the block header does not hash to block.hash');
  if (leadingZeroBits(header) < b.difficulty) problems.push('the block hash does not meet its difficulty');

  // 5. The audit log entry, under a tree head the platform signed.
  const audit = certificate.auditLog;
  if (!audit) {
    problems.push('auditLog is null: the audit log had not recorded the registration yet (fetch it again)');
  } else {
    const inLog = await verifyInclusion(audit);
    for (const p of inLog.problems) problems.push(`audit log proof: ${p}`);
    const root = fromHex(audit.rootHash);
    const headSignature = fromBase64(audit.treeHead.signature);
    const head = root && root.length === 32 ? treeHeadBytes(audit.treeHead.timestampMs, audit.treeSize, root) : null;
    if (!head || !headSignature || !(await crypto.subtle.verify('Ed25519', key, headSignature, head))) {
      problems.push('the tree head signature does not verify');
    }
  }
  return verdict(problems);
}
