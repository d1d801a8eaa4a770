import { createHash, type KeyObject, sign } from 'node:crypto';
import { rawPublicKey } from './tree-head.js';

/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 keys, and the checkpoint text of c2sp.org/tlog-checkpoint.
 * A note is text ending in a newline, a blank line, and one line per signature: `— <key name> base64(key id ‖
 * signature)`, the key id being the first four bytes of SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key).
 */

/** The signature type byte of plain Ed25519 note signatures. */
const ED25519 = 0x01;

/** The four-byte key id of an Ed25519 key under `name`. */
export function noteKeyId(name: string, publicKey: KeyObject): Buffer {
  return createHash('sha256')
    .update(Buffer.from(`${name}\n`, 'utf8'))
    .update(Uint8Array.of(ED25519))
    .update(rawPublicKey(publicKey))
    .digest()
    .subarray(0, 4);
}

/** The verifier key string tlog tooling takes: `<name>+<key id hex>+base64(0x01 ‖ public key)`. */
export function verifierKey(name: string, publicKey: KeyObject): string {
  const material = Buffer.concat([Uint8Array.of(ED25519), rawPublicKey(publicKey)]).toString('base64');
  return `${name}+${noteKeyId(name, publicKey).toString('hex')}+${material}`;
}

/** Whether a key name is allowed: not empty, no spaces, no `+`. */
export function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/** Signs the note text (which must end in a newline) and answers the whole signed note. */
export function signNote(text: string, name: string, privateKey: KeyObject, publicKey: KeyObject): string {
  if (!text.endsWith('\n')) throw new Error('a note text ends in a newline');
  const signature = sign(null, Buffer.from(text, 'utf8'), privateKey);
  const blob = Buffer.concat([noteKeyId(name, publicKey), signature]).toString('base64');
  return `${text}\n\u2014 ${name} ${blob}\n`;
}

/** The checkpoint text: origin, tree size in decimal, base64 root hash, each on its own line. */
export function checkpointText(origin: string, treeSize: number, rootHashHex: string): string {
  return `${origin}\n${treeSize}\n${Buffer.from(rootHashHex, 'hex').toString('base64')}\n`;
}
