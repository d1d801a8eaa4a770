export { JsonText } from './codec.js';
export { type BusLog, type BusLogFn, EVENT_MAX_AGE_MS, INTERNAL_REPLY, jsonLog } from './defaults.js';
export {
  createMemoryBroker,
  type EventLogState,
  type EventLogStore,
  type LoggedEvent,
  type MemoryBroker,
  type MemoryBrokerOptions,
  openMemoryBroker,
  type Settlement,
} from './memory.js';
export { createNatsBus, type NatsBusOptions } from './nats.js';
export { subjectMatches } from './subject.js';
export type * from './types.js';
