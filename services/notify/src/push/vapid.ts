import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import webpush from 'web-push';
import type { NotifyConfig } from '../config.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair: from the settings, else generated once and kept in DATA_DIR/vapid.json, so browsers'
 * subscriptions (made with the public key) stay valid across restarts. Several replicas must share it: set
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY in a cluster.
 */
export async function vapidKeys(config: NotifyConfig): Promise<VapidKeys & { source: string }> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, source: 'settings' };
  }
  const file = join(config.DATA_DIR, 'vapid.json');
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as VapidKeys;
    if (kept.publicKey && kept.privateKey) return { ...kept, source: file };
  } catch {
    // Not there yet (or unreadable): make a new pair below.
  }
  const fresh = webpush.generateVAPIDKeys();
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, JSON.stringify(fresh), { mode: 0o600 });
  return { ...fresh, source: file };
}
