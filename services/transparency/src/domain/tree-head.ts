import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * The bytes a tree head signature covers, RFC 6962 §3.5 TreeHeadSignature: version v1 (0x00), signature type
 * tree_hash (0x01), timestamp in ms (uint64 big-endian), tree size (uint64 big-endian), root hash (32 bytes).
 */
export function treeHeadBytes(timestampMs: number, treeSize: number, rootHash: string): Buffer {
  const out = Buffer.alloc(2 + 8 + 8 + 32);
  out[0] = 0;
  out[1] = 1;
  out.writeBigUInt64BE(BigInt(timestampMs), 2);
  out.writeBigUInt64BE(BigInt(treeSize), 10);
  Buffer.from(rootHash, 'hex').copy(out, 18);
  return out;
}

/** Raw 32-byte Ed25519 public key of a key object (the last 32 bytes of its DER SubjectPublicKeyInfo). */
export function rawPublicKey(key: KeyObject): Buffer {
  const pub = key.type === 'public' ? key : createPublicKey(key);
  const der = pub.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}

/** Key id: SHA-256 of the raw public key, hex. */
export function keyIdOf(key: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(key)).digest('hex');
}

/** Signs a tree head with the Ed25519 private key; base64. */
export function signTreeHead(privateKey: KeyObject, timestampMs: number, treeSize: number, rootHash: string): string {
  return sign(null, treeHeadBytes(timestampMs, treeSize, rootHash), privateKey).toString('base64');
}

/** Whether a tree head signature verifies under the public key. */
export function verifyTreeHead(
  publicKey: KeyObject,
  head: { timestampMs: number; treeSize: number; rootHash: string; signature: string },
): boolean {
  return verify(
    null,
    treeHeadBytes(head.timestampMs, head.treeSize, head.rootHash),
    publicKey,
    Buffer.from(head.signature, 'base64'),
  );
}
