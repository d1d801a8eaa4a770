import type { Location, Plant, PrivacyLevel, PropagationType, RecordedParty } from '@rootline/contracts';
import { type Db, fixedStatement, insertFromJson } from '@rootline/db';
import { count, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { anonymousOwners, plants } from './schema.js';

export type PlantRow = typeof plants.$inferInsert;
type PlantRecord = typeof plants.$inferSelect;
/**
 * The columns a plant's public shape is made of (`toPlant`): not the search texts or the geo band. The registrar is
 * shown only as who stated the name of an owner without an account.
 */
const PUBLIC_KEYS = [
  'id',
  'commonName',
  'scientificName',
  'scientificNameSource',
  'latitude',
  'longitude',
  'city',
  'country',
  'privacyLevel',
  'ownerId',
  'ownerName',
  'ownerNameStatedBy',
  'registeredBy',
  'walletAddress',
  'generation',
  'parentId',
  'propagationType',
  'blockIndex',
  'blockHash',
  'txId',
  'registeredAt',
] as const satisfies readonly (keyof PlantRecord)[];
/** A row with the columns of a plant's public shape, under their drizzle keys. */
export type PublicPlantRecord = Pick<PlantRecord, (typeof PUBLIC_KEYS)[number]>;

export type AnonymousOwnerRow = typeof anonymousOwners.$inferInsert;

/** The INSERT of new plants, as one statement with the rows as one JSON parameter (see `insertFromJson`). */
export function plantsInsert(rows: readonly PlantRow[]): SQL {
  return insertFromJson(plants, rows);
}

/** The INSERT of anonymous owners, as one statement with the rows as one JSON parameter. */
export function anonymousOwnersInsert(rows: readonly AnonymousOwnerRow[]): SQL {
  return insertFromJson(anonymousOwners, rows);
}

function toLocation(r: PublicPlantRecord): Location | null {
  if (r.latitude === null || r.longitude === null) return null;
  return {
    latitude: r.latitude,
    longitude: r.longitude,
    ...(r.city === null ? {} : { city: r.city }),
    ...(r.country === null ? {} : { country: r.country }),
  };
}

/** An anonymous registration as stored: its plant's answer fields and its owner row. */
export interface StoredAnonymousRegistration {
  id: string;
  blockHash: string;
  timestamp: string;
  owner: typeof anonymousOwners.$inferSelect;
}

/** The stored anonymous registration of a plant, if the plant is stored and anonymously owned. */
export async function findAnonymousRegistration(
  db: Db,
  plantId: string,
): Promise<StoredAnonymousRegistration | undefined> {
  const [row] = await db
    .select({ id: plants.id, blockHash: plants.blockHash, timestamp: plants.registeredAt, owner: anonymousOwners })
    .from(plants)
    .innerJoin(anonymousOwners, eq(anonymousOwners.anonymousId, plants.ownerId))
    .where(eq(plants.id, plantId));
  return row && { ...row, timestamp: new Date(row.timestamp).toISOString() };
}

/**
 * The owner as reads show it: the name it was recorded with and, for an owner without an account, who stated that
 * name (the registering account, ADR 194). The gateway adds the current account names.
 */
export function recordedOwner(
  id: string,
  name: string,
  nameStatedBy: string | null,
  registeredBy: string | null,
): RecordedParty {
  return nameStatedBy === null ? { id, name } : { id, name, statedBy: { id: registeredBy, name: nameStatedBy } };
}

/** A stored row in the public shape of a plant. */
export function toPlant(r: PublicPlantRecord): Plant {
  return {
    id: r.id,
    commonName: r.commonName,
    scientificName: r.scientificName,
    ...(r.scientificNameSource ? { scientificNameSource: r.scientificNameSource } : {}),
    location: toLocation(r),
    privacyLevel: r.privacyLevel as PrivacyLevel,
    owner: recordedOwner(r.ownerId, r.ownerName, r.ownerNameStatedBy, r.registeredBy),
    walletAddress: r.walletAddress,
    generation: r.generation,
    parentId: r.parentId,
    propagationType: r.propagationType as PropagationType | null,
    block: { index: r.blockIndex, hash: r.blockHash, txId: r.txId },
    registeredAt: new Date(r.registeredAt).toISOString(),
  };
}

/** The columns of a plant's public shape, aliased to their drizzle keys, for raw queries over `p`. */
export const PUBLIC_COLUMNS = sql.raw(PUBLIC_KEYS.map((key) => `p."${plants[key].name}" as "${key}"`).join(', '));

/**
 * The read of a plant by id, on every `GET /api/plants/{id}`: raw SQL with the public columns only, run prepared
 * (ADR 126). postgres.js builds the row objects itself; through drizzle's builder each row was read as an array and
 * mapped again, the largest cost of the read in the plants service after the database's.
 */
const plantById = fixedStatement(
  'plants_plant_by_id',
  sql`select ${PUBLIC_COLUMNS} from "plants"."plants" p where p.id = ${sql.placeholder('id')}`,
);

/** The plant in its public shape, or undefined. */
export async function findPlant(db: Db, id: string): Promise<Plant | undefined> {
  const [r] = await plantById<PublicPlantRecord>(db, { id });
  return r ? toPlant(r) : undefined;
}

/** One page of an owner's plants, newest first (ties by id), and how many they hold; served by the owner index. */
export async function findOwnedPlants(
  db: Db,
  ownerId: string,
  offset: number,
  limit: number,
): Promise<{ items: Plant[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(plants)
      .where(eq(plants.ownerId, ownerId))
      .orderBy(desc(plants.registeredAt), desc(plants.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(plants).where(eq(plants.ownerId, ownerId)),
  ]);
  return { items: rows.map(toPlant), total: Number(counted[0]?.total ?? 0) };
}

/** The newest plants of the network (the registration-time index), newest first, and how many there are. */
export async function findRecentPlants(
  db: Db,
  offset: number,
  limit: number,
): Promise<{ items: Plant[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db.select().from(plants).orderBy(desc(plants.registeredAt), desc(plants.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(plants),
  ]);
  return { items: rows.map(toPlant), total: Number(counted[0]?.total ?? 0) };
}

/** What a propagation needs of its parent, or undefined. */
export async function findParent(
  db: Db,
  id: string,
): Promise<
  { id: string; commonName: string; scientificName: string | null; generation: number; blockHash: string } | undefined
> {
  const [r] = await db
    .select({
      id: plants.id,
      commonName: plants.commonName,
      scientificName: plants.scientificName,
      generation: plants.generation,
      blockHash: plants.blockHash,
    })
    .from(plants)
    .where(eq(plants.id, id))
    .limit(1);
  return r;
}

/** Every column of a plant row, aliased to its drizzle key, for raw queries that map rows with `toPlant`. */
export const PLANT_COLUMNS = sql.raw(
  Object.entries(getTableColumns(plants))
    .map(([key, column]) => `p."${(column as { name: string }).name}" as "${key}"`)
    .join(', '),
);

/** A whole number bound as a bigint parameter (an offset can be far past 2³¹). */
export function int8(v: number): SQL {
  if (!Number.isSafeInteger(Math.trunc(v))) throw new Error(`not a safe integer: ${v}`);
  return sql`${Math.trunc(v)}::bigint`;
}
