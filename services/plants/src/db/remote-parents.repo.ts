import { type Db, insertFromJson } from '@rootline/db';
import { inArray, type SQL } from 'drizzle-orm';
import { remoteParents } from './schema.js';

export type RemoteParentRow = typeof remoteParents.$inferInsert;
export type StoredRemoteParent = typeof remoteParents.$inferSelect;

/** The INSERT of links to parents on other nodes, as one statement with the rows as one JSON parameter. */
export function remoteParentsInsert(rows: readonly RemoteParentRow[]): SQL {
  return insertFromJson(remoteParents, rows);
}

/** The parents on other nodes of the plants named, by the plant here whose parent each is. */
export async function findRemoteParents(db: Db, plantIds: readonly string[]): Promise<StoredRemoteParent[]> {
  if (plantIds.length === 0) return [];
  return db
    .select()
    .from(remoteParents)
    .where(inArray(remoteParents.plantId, [...plantIds]));
}
