/** An Ed25519 key pair made in this browser: raw 32-byte keys in base64url, as the API writes them. */
export interface WalletKeys {
  publicKey: string;
  privateKey: string;
}

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Makes the wallet's Ed25519 key pair with WebCrypto. The private key (its 32-byte seed, JWK `d`) stays in this
 * page's memory until the person saves it; only the public key is ever sent.
 */
export async function makeWalletKeys(): Promise<WalletKeys> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicKey = base64url(await crypto.subtle.exportKey('raw', pair.publicKey));
  const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  if (!jwk.d) throw new Error('This browser did not export the private key');
  return { publicKey, privateKey: jwk.d };
}

/** Whether this browser can make Ed25519 keys (WebCrypto's Ed25519, in current browsers). */
export async function canMakeWalletKeys(): Promise<boolean> {
  try {
    await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign']);
    return true;
  } catch {
    return false;
  }
}
