import type { ServiceModule } from '@rootline/host';

/**
 * environment: per-plant environment records, recommendations and similarity.
 * No handlers yet: the service starts, joins the bus and answers its status subject.
 */
export const service: ServiceModule = {
  name: 'environment',
  version: '0.1.0',
  create() {
    return { handlers: [], subscribers: [] };
  },
};
