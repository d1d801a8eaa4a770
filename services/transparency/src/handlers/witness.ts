import type { KeyObject } from 'node:crypto';
import { AppError, witnessAddCheckpoint, witnessInfoGet } from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { listWitnessedLogs, lockWitnessedLog, readWitnessedLog, saveWitnessedLog } from '../db/witness.repo.js';
import {
  COSIGNATURE_V1,
  cosign,
  judgeAddCheckpoint,
  type NamedKey,
  parseAddCheckpoint,
  vkeyOf,
} from '../domain/cosignature.js';

/** The witness this node runs: its name and key, and the keys of the logs it follows by origin. */
export interface Witness {
  name: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  logs: Map<string, NamedKey[]>;
}

/**
 * transparency.witness.add-checkpoint (c2sp.org/tlog-witness): under the log's lock, judges the request against
 * what the witness last cosigned, records the new checkpoint and answers its timestamped cosignature.
 */
export const addCheckpoint = (ctx: ServiceContext, witness: Witness) =>
  handle(witnessAddCheckpoint, async ({ body }) => {
    let request: ReturnType<typeof parseAddCheckpoint>;
    try {
      request = parseAddCheckpoint(body);
    } catch (err) {
      throw new AppError('VALIDATION_ERROR', `Not an add-checkpoint request: ${(err as Error).message}`);
    }
    const origin = request.note.slice(0, Math.max(0, request.note.indexOf('\n')));
    return ctx.db.transaction(async (tx) => {
      const followed = witness.logs.has(origin);
      if (followed) await lockWitnessedLog(tx, origin);
      const last = followed ? await readWitnessedLog(tx, origin) : null;
      const verdict = judgeAddCheckpoint(request, (o) => witness.logs.get(o), last);
      switch (verdict.outcome) {
        case 'malformed':
          throw new AppError('VALIDATION_ERROR', `Not a signed checkpoint: ${verdict.reason}`);
        case 'unknown-log':
          throw new AppError('NOT_FOUND', `This witness does not follow the log ${verdict.origin.slice(0, 200)}`);
        case 'bad-signature':
          throw new AppError('FORBIDDEN', 'The checkpoint carries no valid signature by a key of its log');
        case 'old-size-too-large':
          throw new AppError('VALIDATION_ERROR', 'The old size is larger than the checkpoint’s size');
        case 'conflict':
          throw new AppError('CONFLICT', `Refused: ${verdict.reason}`, { size: verdict.size });
        case 'bad-proof':
          throw new AppError(
            'UNPROCESSABLE',
            `The consistency proof from size ${request.oldSize} does not lead to this checkpoint`,
          );
        case 'cosign': {
          const now = ctx.clock.now();
          const { checkpoint } = verdict;
          await saveWitnessedLog(
            tx,
            { origin, size: checkpoint.size, rootHash: checkpoint.rootHash, note: request.note },
            now,
          );
          const at = Math.floor(now.getTime() / 1000);
          return { cosignatures: cosign(verdict.text, at, witness.name, witness.privateKey, witness.publicKey) };
        }
      }
    });
  });

/** transparency.witness.get: the witness's name and verifier key, and what it last cosigned of each log. */
export const getWitness = (ctx: ServiceContext, witness: Witness) =>
  handle(witnessInfoGet, async () => {
    const sizes = await listWitnessedLogs(ctx.db);
    return {
      name: witness.name,
      verifierKey: vkeyOf(witness.name, COSIGNATURE_V1, witness.publicKey),
      logs: [...witness.logs.keys()].sort().map((origin) => ({ origin, size: sizes.get(origin) ?? null })),
    };
  });
