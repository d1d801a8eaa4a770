import type { Db } from '@rootline/db';
import { and, asc, eq, gt, isNotNull, ne, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { LinkPlant } from '../domain/anomalies.js';
import { plants } from './schema.js';

const parent = alias(plants, 'parent');

function toLink(r: LinkPlant): LinkPlant {
  // Timestamps come back in the database's text form; the rules compare ISO strings' instants.
  return { ...r, registeredAt: new Date(r.registeredAt).toISOString() };
}

const childLink = {
  id: plants.id,
  parentId: plants.parentId,
  generation: plants.generation,
  registeredAt: plants.registeredAt,
  latitude: plants.latitude,
  longitude: plants.longitude,
};
const parentLink = {
  id: parent.id,
  parentId: parent.parentId,
  generation: parent.generation,
  registeredAt: parent.registeredAt,
  latitude: parent.latitude,
  longitude: parent.longitude,
};

/**
 * The next `limit` plants after `afterId` (by id) that have a parent or claim a generation above 0, each with its
 * parent (undefined when the parent id names no plant): the input of the anomaly rules, read in keyset pages.
 */
export async function linkBatch(
  db: Db,
  afterId: string,
  limit: number,
): Promise<{ plant: LinkPlant; parent: LinkPlant | undefined }[]> {
  const rows = await db
    .select({ plant: childLink, parent: parentLink })
    .from(plants)
    .leftJoin(parent, eq(parent.id, plants.parentId))
    .where(and(gt(plants.id, afterId), or(isNotNull(plants.parentId), ne(plants.generation, 0))))
    .orderBy(asc(plants.id))
    .limit(limit);
  return rows.map((r) => ({ plant: toLink(r.plant), parent: r.parent ? toLink(r.parent) : undefined }));
}
