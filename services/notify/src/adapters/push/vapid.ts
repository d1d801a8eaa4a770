import { createECDH } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '@rootline/host';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** File under DATA_DIR holding the generated pair of an installation that does not configure one. */
export const VAPID_FILE = 'vapid.json';

export interface VapidSettings {
  VAPID_PUBLIC_KEY?: string | undefined;
  VAPID_PRIVATE_KEY?: string | undefined;
  DATA_DIR: string;
}

/** The push subscriptions on record: how many, and the VAPID public keys they were made with (where recorded). */
export interface ExistingSubscriptions {
  subscriptions: number;
  publicKeys: readonly string[];
}

/** The P-256 public key (uncompressed, base64url) of a VAPID private key. */
function publicKeyOf(privateKey: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}

function configured(config: VapidSettings): VapidKeys | undefined {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = config;
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey) {
    throw new ConfigError(`${publicKey ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'}: set both VAPID keys or neither`);
  }
  let derived: string;
  try {
    derived = publicKeyOf(privateKey);
  } catch {
    throw new ConfigError('VAPID_PRIVATE_KEY: not a P-256 private key (32 bytes, base64url)');
  }
  if (derived !== publicKey) throw new ConfigError('VAPID_PUBLIC_KEY: not the public key of VAPID_PRIVATE_KEY');
  return { publicKey, privateKey };
}

async function kept(file: string): Promise<VapidKeys | undefined> {
  try {
    const pair = JSON.parse(await readFile(file, 'utf8')) as VapidKeys;
    return pair.publicKey && pair.privateKey ? pair : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${file} cannot be read as a VAPID key pair: ${(err as Error).message}`);
  }
}

/**
 * The VAPID key pair: from the settings, else generated once and kept in DATA_DIR/vapid.json, so browsers'
 * subscriptions (made with the public key) stay valid across restarts. Several replicas must share it: set
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY in a cluster.
 *
 * Subscriptions are bound to the public key they were made with: while any exist and the pair is gone, or their
 * recorded key is not this one, this refuses (naming the settings) instead of making a pair no push service accepts.
 */
export async function vapidKeys(
  config: VapidSettings,
  existing: ExistingSubscriptions,
): Promise<VapidKeys & { source: string }> {
  const file = join(config.DATA_DIR, VAPID_FILE);
  const fromSettings = configured(config);
  let pair: (VapidKeys & { source: string }) | undefined = fromSettings && { ...fromSettings, source: 'settings' };
  pair ??= await kept(file).then((k) => k && { ...k, source: file });
  if (!pair) {
    if (existing.subscriptions > 0) {
      const made = existing.publicKeys.length > 0 ? ` (public key ${existing.publicKeys.join(', ')})` : '';
      throw new ConfigError(
        `VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: ${existing.subscriptions} push subscription(s) were made with a VAPID ` +
          `key${made} that is gone: neither is set and ${file} does not exist. Set both to that pair (or restore ` +
          'the file); a new pair would break every subscription, so none is generated',
      );
    }
    // web-push is loaded only here and by the first push sent: most starts need neither.
    const fresh = (await import('web-push')).default.generateVAPIDKeys();
    await mkdir(config.DATA_DIR, { recursive: true });
    try {
      // 'wx' fails when the file exists: a replica sharing DATA_DIR made it first, and its pair is read back.
      await writeFile(file, JSON.stringify(fresh), { mode: 0o600, flag: 'wx' });
      pair = { ...fresh, source: file };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      pair = { ...((await kept(file)) as VapidKeys), source: file };
    }
  }
  const other = existing.publicKeys.filter((k) => k !== pair.publicKey);
  if (other.length > 0) {
    throw new ConfigError(
      `VAPID_PUBLIC_KEY: push subscriptions were made with public key ${other.join(', ')}, but the key from ` +
        `${pair.source} is ${pair.publicKey}. Set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY to the pair they were made with`,
    );
  }
  return pair;
}
