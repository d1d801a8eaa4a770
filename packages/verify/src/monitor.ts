import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keySetFrom, type PublishedKey, type TrustedKey } from './keys.js';
import { hash32, verifyConsistency } from './merkle.js';
import { BadSignature, openNote, parseCheckpoint } from './note.js';
import { cosignaturesOf, requireCosignatures, type WitnessPolicy } from './witness.js';

/** The log presented two views that cannot both be true: a fork, a shrink, or a bad consistency proof. */
export class ForkDetected extends Error {}

export interface MonitorOptions {
  /** The platform's address, e.g. `https://rootline.example.org`. */
  baseUrl: string;
  /** Where the checkpoints seen and the keys pinned are kept between runs. */
  stateDir: string;
  log?: (line: string) => void;
  /** When set, a checkpoint counts only with the policy's threshold of valid witness cosignatures. */
  witnesses?: WitnessPolicy;
}

interface Seen {
  origin: string;
  size: number;
  rootHash: string;
  note: string;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const body = (await res.json()) as { success?: boolean; data?: unknown; error?: { message?: string } };
  if (!res.ok || body.success === false) throw new Error(`${url}: ${res.status} ${body.error?.message ?? ''}`.trim());
  return body.data;
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * The keys to trust: those pinned on an earlier run, plus new ones the platform now lists (a rotation), which are
 * pinned from now on. A pinned key id listed with other material is refused.
 */
async function trustedKeys(opts: MonitorOptions): Promise<TrustedKey[]> {
  const file = join(opts.stateDir, 'keys.json');
  const pinned = (await readJson<PublishedKey[]>(file)) ?? [];
  const listed = keySetFrom(await getJson(`${opts.baseUrl}/api/transparency/audit/keys`));
  for (const k of pinned) {
    const now = listed.find((l) => l.keyId === k.keyId);
    if (now && now.publicKey !== k.publicKey) throw new BadSignature(`key ${k.keyId} is now listed with another key`);
  }
  const added = listed.filter((l) => !pinned.some((k) => k.keyId === l.keyId));
  for (const k of added) opts.log?.(`pinned key ${k.keyId} (${k.verifierKey})`);
  const published = (k: PublishedKey): PublishedKey => {
    const { keyId, algorithm, publicKey, noteKeyName, noteKeyId, verifierKey, validFrom, validUntil } = k;
    return { keyId, algorithm, publicKey, noteKeyName, noteKeyId, verifierKey, validFrom, validUntil };
  };
  const all = [...pinned.map((k) => listed.find((l) => l.keyId === k.keyId) ?? k), ...added].map(published);
  await writeFile(file, `${JSON.stringify(all, null, 2)}\n`);
  return keySetFrom(all);
}

/**
 * Fetches the log's checkpoint once and checks it against the last one seen: its signature by a pinned key, the
 * same origin, and a consistency proof from the last size (a smaller size, or another root at the same size, is a
 * fork). The accepted checkpoint is kept in the state directory. Throws `ForkDetected` or `BadSignature`.
 */
export async function pollOnce(opts: MonitorOptions): Promise<{ size: number; rootHash: string; grew: boolean }> {
  await mkdir(opts.stateDir, { recursive: true });
  const keys = await trustedKeys(opts);
  const { note } = (await getJson(`${opts.baseUrl}/api/transparency/audit/checkpoint`)) as { note: string };
  const { text } = openNote(
    note,
    keys.map((k) => k.note),
  );
  const cp = parseCheckpoint(text);
  const cosigned = opts.witnesses ? requireCosignatures(note, opts.witnesses) : [];
  const latestFile = join(opts.stateDir, 'latest.json');
  const last = await readJson<Seen>(latestFile);
  if (last) {
    if (cp.origin !== last.origin) throw new ForkDetected(`origin changed from ${last.origin} to ${cp.origin}`);
    if (cp.size < last.size) {
      throw new ForkDetected(`the log shrank from ${last.size} to ${cp.size} entries: history was rewritten`);
    }
    if (cp.size === last.size && cp.rootHash !== last.rootHash) {
      // Two checkpoints of one size, both signed by the log (and, under a policy, both cosigned): a split view.
      const by = (n: typeof cosigned) =>
        n.length ? `cosigned by ${n.map((c) => c.witness).join(', ')}` : 'uncosigned';
      const before = opts.witnesses ? by(cosignaturesOf(last.note, opts.witnesses)) : '';
      throw new ForkDetected(
        `two roots for ${cp.size} entries (${last.rootHash}${before ? `, ${before}` : ''} and ${cp.rootHash}` +
          `${opts.witnesses ? `, ${by(cosigned)}` : ''}): a fork`,
      );
    }
    if (cp.size > last.size && last.size > 0) {
      const proof = (await getJson(
        `${opts.baseUrl}/api/transparency/audit/consistency?first=${last.size}&second=${cp.size}`,
      )) as { proof: string[] };
      const ok = verifyConsistency(
        last.size,
        cp.size,
        hash32(last.rootHash, 'root'),
        hash32(cp.rootHash, 'root'),
        proof.proof.map((h) => hash32(h, 'proof hash')),
      );
      if (!ok) {
        throw new ForkDetected(
          `the checkpoint of ${cp.size} entries is not consistent with the one of ${last.size} seen before: a fork`,
        );
      }
    }
  }
  const grew = !last || cp.size > last.size;
  if (grew) {
    const seen: Seen = { origin: cp.origin, size: cp.size, rootHash: cp.rootHash, note };
    await writeFile(latestFile, `${JSON.stringify(seen, null, 2)}\n`);
    await appendFile(join(opts.stateDir, 'checkpoints.jsonl'), `${JSON.stringify(seen)}\n`);
    const witnessed = opts.witnesses ? `, cosigned by ${cosigned.map((c) => c.witness).join(', ')}` : '';
    opts.log?.(
      `checkpoint ${cp.size} ${cp.rootHash} ${last ? `consistent with ${last.size}` : 'first seen'}${witnessed}`,
    );
  }
  return { size: cp.size, rootHash: cp.rootHash, grew };
}

/** Polls every `intervalMs` until a check fails (which it throws) or `signal` aborts. */
export async function monitor(opts: MonitorOptions & { intervalMs: number; signal?: AbortSignal }): Promise<void> {
  while (!opts.signal?.aborted) {
    await pollOnce(opts);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, opts.intervalMs);
      opts.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
