import type { Agent } from 'node:http';
import type { Db } from '@rootline/db';
import type { Clock, Logger } from '@rootline/host';
import type { SigningKey } from '../adapters/signing-key.js';
import { postAddCheckpoint } from '../adapters/witness-client.js';
import { readHead } from '../db/audit.repo.js';
import { cosignedSizes, saveCosignature } from '../db/witness.repo.js';
import { signatureLines, verifyCosignature } from '../domain/cosignature.js';
import { checkpointText, signNote } from '../domain/signed-note.js';
import type { WitnessPeer } from '../domain/witness-config.js';
import { createPeerLoops } from './peer-loops.js';

export interface WitnessRequesterOptions {
  db: Db;
  log: Logger;
  clock: Clock;
  key: SigningKey;
  origin: string;
  peers: readonly WitnessPeer[];
  /** The consistency proof between two sizes of the log, as hashes. */
  proof: (first: number, second: number) => Promise<Buffer[]>;
  pollMs: number;
  timeoutMs: number;
  agent?: Agent | undefined;
}

/** What one request to a witness came to. */
export type Asked = 'cosigned' | 'refused' | 'failed';

/**
 * The log side of c2sp.org/tlog-witness: one loop per witness asks it to cosign the current checkpoint with a
 * consistency proof from the size it last cosigned; on 409 it retries once from the size the witness reports. Each
 * witness has its own loop and its own timeout, and the loops only read the log: a slow or absent witness delays
 * its own cosignature, never an append or another witness.
 */
export function createWitnessRequester(o: WitnessRequesterOptions) {
  async function ask(peer: WitnessPeer): Promise<Asked | 'current'> {
    const head = await readHead(o.db);
    // Read each time (one row per witness): replicas share it, and a log that lost it learns the size again by 409.
    const sizes = await cosignedSizes(o.db);
    let old = sizes.get(peer.vkey) ?? 0;
    if (head.size === 0 || (sizes.has(peer.vkey) && old === head.size)) return 'current';
    const text = checkpointText(o.origin, head.size, head.rootHash);
    const note = signNote(text, o.origin, o.key.privateKey, o.key.publicKey);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (old > head.size) {
        o.log.error({ witness: peer.key.name, size: old, ours: head.size }, 'witness: it cosigned a larger tree');
        return 'refused';
      }
      const proof = old === 0 || old === head.size ? [] : await o.proof(old, head.size);
      const body = `old ${old}\n${proof.map((h) => `${h.toString('base64')}\n`).join('')}\n${note}`;
      const answer = await postAddCheckpoint(peer.url, body, {
        timeoutMs: o.timeoutMs,
        agent: o.agent,
        signal: loops.signal,
      });
      if (answer.status === 200) {
        const line = signatureLines(answer.body).find((l) => verifyCosignature(text, l, peer.key) !== null);
        if (!line) {
          o.log.warn({ witness: peer.key.name }, 'witness: answered 200 without a valid cosignature');
          return 'failed';
        }
        await saveCosignature(
          o.db,
          { witness: peer.vkey, treeSize: head.size, rootHash: head.rootHash, line: line.line },
          o.clock.now(),
        );
        return 'cosigned';
      }
      const reported = /^(0|[1-9][0-9]{0,15})\n$/.exec(answer.body);
      if (answer.status === 409 && answer.contentType.startsWith('text/x.tlog.size') && reported) {
        const size = Number(reported[1]);
        if (size === old) {
          // The witness holds another root at this size: it saw a different view of the log.
          o.log.error({ witness: peer.key.name, size }, 'witness: refused our checkpoint of the size it holds');
          return 'refused';
        }
        old = size;
        continue;
      }
      o.log.warn(
        { witness: peer.key.name, status: answer.status, body: answer.body.slice(0, 200) },
        'witness: refused the checkpoint',
      );
      return 'refused';
    }
    return 'refused';
  }

  const loops = createPeerLoops({
    peers: o.peers,
    pollMs: o.pollMs,
    work: ask,
    failed: (peer, err) => o.log.warn({ witness: peer.key.name, err: err.message }, 'witness: not reached'),
  });

  return {
    /** Asks one witness once (tests and the loop). */
    ask,
    async start() {
      loops.start();
    },
    stop: () => loops.stop(),
  };
}
