import type { ServiceModule } from '@rootline/host';

/**
 * media: uploads, thumbnails and file storage.
 * No handlers yet: the service starts, joins the bus and answers its status subject.
 */
export const service: ServiceModule = {
  name: 'media',
  version: '0.1.0',
  create() {
    return { handlers: [], subscribers: [] };
  },
};
