import { COSIGNATURE_V1, ED25519, type NamedKey, parseVkey } from './cosignature.js';

/** A witness the log asks for cosignatures: its key and its submission prefix. */
export interface WitnessPeer {
  /** The verifier key as configured, also the witness's id in stored cosignatures. */
  vkey: string;
  key: NamedKey;
  /** The submission prefix, without a trailing slash; requests go to `<url>/add-checkpoint`. */
  url: string;
}

const entries = (setting: string | undefined) =>
  (setting ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);

/** WITNESS_LOGS: `[<origin> ]<vkey>` entries → the keys of each followed origin. Throws on a bad entry. */
export function parseFollowedLogs(setting: string | undefined): Map<string, NamedKey[]> {
  const logs = new Map<string, NamedKey[]>();
  for (const entry of entries(setting)) {
    const parts = entry.split(/\s+/u);
    if (parts.length > 2) throw new Error(`WITNESS_LOGS: "${entry}" is not "[<origin> ]<verifier key>"`);
    const key = parseVkey(parts.at(-1)!, ED25519);
    const origin = parts.length === 2 ? parts[0]! : key.name;
    logs.set(origin, [...(logs.get(origin) ?? []), key]);
  }
  return logs;
}

/** AUDIT_WITNESSES: `<vkey> <url>` entries → the witnesses to ask. Throws on a bad entry. */
export function parseWitnessPeers(setting: string | undefined): WitnessPeer[] {
  return entries(setting).map((entry) => {
    const parts = entry.split(/\s+/u);
    if (parts.length !== 2) throw new Error(`AUDIT_WITNESSES: "${entry}" is not "<verifier key> <URL>"`);
    const [vkey, url] = parts as [string, string];
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`AUDIT_WITNESSES: ${url} is not an http(s) URL`);
    }
    return { vkey, key: parseVkey(vkey, COSIGNATURE_V1), url: url.replace(/\/+$/u, '') };
  });
}
