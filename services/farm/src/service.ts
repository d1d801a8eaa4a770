import type { ServiceModule } from '@rootline/host';

/**
 * farm: vertical farms, zones, crop batches and recipes.
 * No handlers yet: the service starts, joins the bus and answers its status subject.
 */
export const service: ServiceModule = {
  name: 'farm',
  version: '0.1.0',
  create() {
    return { handlers: [], subscribers: [] };
  },
};
