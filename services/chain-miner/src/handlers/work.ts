import { chainWorkFound, chainWorkNext } from '@rootline/contracts';
import { handle } from '@rootline/host';
import type { JobCoordinator } from '../jobs/appender/job-coordinator.js';

// Served by the appender only, while this instance holds the lease (see jobs/appender/appender.ts): helpers
// reach the appender whichever instance it is.

/** chain.work.next: a helper's long poll for a nonce range of the block being mined. */
export const workNext = (coordinator: JobCoordinator) => handle(chainWorkNext, (input) => coordinator.nextWork(input));

/** chain.work.found: a helper reports a nonce; the appender verifies it before use. */
export const workFound = (coordinator: JobCoordinator) =>
  handle(chainWorkFound, async ({ jobId, nonce }) => ({ accepted: coordinator.report(jobId, nonce) }));
