/**
 * The proof of ownership of an anonymously registered plant (docs/plants.md), made and checked in this browser:
 * the saved key signs `rootline-ownership:<plantId>:<walletAddress>:<challenge>` with Ed25519, and the proof holds
 * when the public key hashes to the plant's wallet address (`rlw_` + the first 40 hex digits of SHA-256 over the raw
 * key) and the signature verifies against it. Nothing is sent anywhere.
 */

/** The key file the registration page saves (or the same fields pasted). */
export interface SavedKey {
  privateKey: string;
  publicKey: string;
}

export interface OwnershipProof {
  challenge: string;
  signature: string;
  walletAddress: string;
}

function base64url(bytes: ArrayBuffer | Uint8Array): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The saved key in a key file's text (JSON with `privateKey` and `publicKey`), or null when it holds none. */
export function parseSavedKey(text: string): SavedKey | null {
  try {
    const value = JSON.parse(text) as { privateKey?: unknown; publicKey?: unknown };
    if (typeof value.privateKey === 'string' && typeof value.publicKey === 'string') {
      return { privateKey: value.privateKey, publicKey: value.publicKey };
    }
  } catch {
    // Not JSON: not a key file.
  }
  return null;
}

/** The wallet address of a raw Ed25519 public key (base64url). */
export async function walletAddressOf(publicKey: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', fromBase64url(publicKey)));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  return `rlw_${hex.slice(0, 40)}`;
}

export const ownershipMessage = (plantId: string, walletAddress: string, challenge: string) =>
  new TextEncoder().encode(`rootline-ownership:${plantId}:${walletAddress}:${challenge}`);

/**
 * Signs a fresh challenge for the plant with the saved key and checks the proof as any verifier would. Throws with a
 * message for a person when the key is not the plant's.
 */
export async function proveOwnership(plantId: string, walletAddress: string, key: SavedKey): Promise<OwnershipProof> {
  if ((await walletAddressOf(key.publicKey)) !== walletAddress) {
    throw new Error('This key is not the key of this plant: its wallet address differs.');
  }
  const privateKey = await crypto.subtle.importKey(
    'jwk',
    { kty: 'OKP', crv: 'Ed25519', d: key.privateKey, x: key.publicKey },
    { name: 'Ed25519' },
    false,
    ['sign'],
  );
  const challenge = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const message = ownershipMessage(plantId, walletAddress, challenge);
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, privateKey, message);
  const publicKey = await crypto.subtle.importKey('raw', fromBase64url(key.publicKey), { name: 'Ed25519' }, false, [
    'verify',
  ]);
  if (!(await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, signature, message))) {
    throw new Error('The private key does not match its public key.');
  }
  return { challenge, signature: base64url(signature), walletAddress };
}
