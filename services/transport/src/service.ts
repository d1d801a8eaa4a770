import type { ServiceModule } from '@rootline/host';

/**
 * transport: transport events along a plant's journey and carbon footprints.
 * No handlers yet: the service starts, joins the bus and answers its status subject.
 */
export const service: ServiceModule = {
  name: 'transport',
  version: '0.1.0',
  create() {
    return { handlers: [], subscribers: [] };
  },
};
