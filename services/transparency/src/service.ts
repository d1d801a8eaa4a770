import type { ServiceModule } from '@rootline/host';

/**
 * transparency: audit log, event history, webhooks, certificates, exports and reports.
 * No handlers yet: the service starts, joins the bus and answers its status subject.
 */
export const service: ServiceModule = {
  name: 'transparency',
  version: '0.1.0',
  create() {
    return { handlers: [], subscribers: [] };
  },
};
