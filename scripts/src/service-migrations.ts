import { join } from 'node:path';
import { REPO_ROOT } from './data-dir.js';

/**
 * Every service's schema and migrations folder, in start order, without loading the services: what a first
 * embedded start applies where it creates the database, before the platform's code is loaded (ADR 223). Each
 * service keeps its migrations in `services/<directory>/drizzle`; a test keeps this list equal to the services'
 * own declarations (`SERVICES`).
 */
export const SERVICE_MIGRATIONS: readonly { schema: string; migrationsFolder: string }[] = [
  ['chain-miner', 'chain'],
  ['plants', 'plants'],
  ['transport', 'transport'],
  ['demand', 'demand'],
  ['farm', 'farm'],
  ['environment', 'environment'],
  ['transparency', 'transparency'],
  ['media', 'media'],
  ['notify', 'notify'],
].map(([directory, schema]) => ({
  schema: schema!,
  migrationsFolder: join(REPO_ROOT, 'services', directory!, 'drizzle'),
}));
