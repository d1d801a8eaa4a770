import type { ServiceModule } from '@rootline/host';

/**
 * notify: email, push and in-app notifications.
 * No handlers yet: the service starts, joins the bus and answers its status subject.
 */
export const service: ServiceModule = {
  name: 'notify',
  version: '0.1.0',
  create() {
    return { handlers: [], subscribers: [] };
  },
};
