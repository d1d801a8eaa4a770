import type { CallContext } from '@rootline/contracts';
import type { Logger } from './logger.js';

/** What a handler knows of its caller; `log` carries the request id. */
export interface HandlerContext extends CallContext {
  log: Logger;
}
