import { AppError, logTileGet } from '@rootline/contracts';
import { nodeKey } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import { entryBatch, readHead, readNodes } from '../db/audit.repo.js';
import { entryBundle, tileInTree, tileNodes } from '../domain/tiles.js';

/**
 * transparency.tile.get: a Merkle tile or an entry bundle (c2sp.org/tlog-tiles). Only tiles the current tree holds
 * exist; each is immutable once it does (its hashes are perfect subtrees), so any partial tile up to the current size
 * is served, as every size has a checkpoint.
 */
export const getLogTile = (ctx: ServiceContext) =>
  handle(logTileGet, async ({ kind, level, index, width }) => {
    const head = await readHead(ctx.db);
    if (!tileInTree(level, index, width, head.size)) {
      throw new AppError('NOT_FOUND', `The log of ${head.size} entries has no such tile`);
    }
    if (kind === 'entries') {
      const rows = await entryBatch(ctx.db, index * 256, width);
      if (rows.length !== width) throw new Error(`entry bundle ${index}: ${rows.length} of ${width} entries read`);
      try {
        return { bytes: entryBundle(rows.map((r) => Buffer.from(r.body, 'utf8'))).toString('base64') };
      } catch (err) {
        throw new AppError('UNAVAILABLE', (err as Error).message);
      }
    }
    const refs = tileNodes(level, index, width);
    const nodes = await readNodes(ctx.db, refs);
    const hashes = refs.map((r) => {
      const hash = nodes.get(nodeKey(r));
      if (!hash) throw new Error(`Merkle node ${nodeKey(r)} is missing`);
      return Buffer.from(hash, 'hex');
    });
    return { bytes: Buffer.concat(hashes).toString('base64') };
  });
