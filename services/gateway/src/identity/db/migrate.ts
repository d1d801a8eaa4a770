import { fileURLToPath } from 'node:url';
import { type Database, migrateSchema } from '@rootline/db';

/** The gateway's generated migrations (drizzle-kit, from schema.ts). */
const MIGRATIONS = fileURLToPath(new URL('../../../drizzle', import.meta.url));

/** Applies the `identity` schema's pending migrations; a no-op when all are applied. */
export function migrateIdentity(database: Database): Promise<void> {
  return migrateSchema(database, { schema: 'identity', migrationsFolder: MIGRATIONS });
}
