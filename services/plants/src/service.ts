import { fileURLToPath } from 'node:url';
import type { ServiceModule } from '@rootline/host';
import { outbox } from './db/schema.js';
import { getPlant, registerPlant } from './handlers/plant.js';

/** plants: the plant registry (registration, reads). */
export const service: ServiceModule = {
  name: 'plants',
  version: '0.1.0',
  db: { schema: 'plants', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  create(ctx) {
    return {
      handlers: [registerPlant(ctx), getPlant(ctx)],
      subscribers: [],
    };
  },
};
