import type { ErrorBody } from './errors.js';

/** What a service answers on the bus: data, or an error in the spec's codes. */
export type BusReply<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };
