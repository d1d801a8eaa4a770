import type { ServiceModule } from '@rootline/host';

/**
 * demand: demand planning: preferences, signals, forecasts, supply and matches.
 * No handlers yet: the service starts, joins the bus and answers its status subject.
 */
export const service: ServiceModule = {
  name: 'demand',
  version: '0.1.0',
  create() {
    return { handlers: [], subscribers: [] };
  },
};
