import { runStandalone } from '@rootline/host';
import { service } from './service.js';

await runStandalone(service);
