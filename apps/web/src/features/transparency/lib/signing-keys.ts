// Signing keys made in this browser with WebCrypto's Ed25519 (RFC 8032): the private key is created
// non-extractable and kept in this browser's IndexedDB, so it never leaves it and no script can read its bytes.

const DB = 'rootline-signing-keys';
const STORE = 'keys';

/** A key pair of this browser, stored under the id the API gave its public key. */
export interface BrowserKey {
  keyId: string;
  publicKey: string;
  privateKey: CryptoKey;
}

function base64url(bytes: ArrayBuffer | Uint8Array): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Whether this browser has WebCrypto Ed25519. */
export async function supportsEd25519(): Promise<boolean> {
  try {
    await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign']);
    return true;
  } catch {
    return false;
  }
}

/** A new key pair: the public key as raw base64url (43 characters, as the API takes it). */
export async function makeKeyPair(): Promise<{ publicKey: string; privateKey: CryptoKey }> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  return { publicKey: base64url(await crypto.subtle.exportKey('raw', pair.publicKey)), privateKey: pair.privateKey };
}

/** The Ed25519 signature of the UTF-8 bytes of `text`, base64url. */
export async function signText(privateKey: CryptoKey, text: string): Promise<string> {
  return base64url(await crypto.subtle.sign('Ed25519', privateKey, new TextEncoder().encode(text)));
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'keyId' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

export function saveKey(key: BrowserKey): Promise<IDBValidKey> {
  return run('readwrite', (s) => s.put(key));
}

export function browserKeys(): Promise<BrowserKey[]> {
  return run('readonly', (s) => s.getAll() as IDBRequest<BrowserKey[]>);
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Whether `signature` (base64url) is the Ed25519 signature of the UTF-8 bytes of `text` by the raw `publicKey`. */
export async function verifyText(publicKey: string, signature: string, text: string): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', fromBase64url(publicKey), { name: 'Ed25519' }, false, ['verify']);
  return crypto.subtle.verify('Ed25519', key, fromBase64url(signature), new TextEncoder().encode(text));
}
