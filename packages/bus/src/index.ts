export { JsonText } from './codec.js';
export { type BusLog, type BusLogFn, EVENT_MAX_AGE_MS, INTERNAL_REPLY, jsonLog } from './defaults.js';
export type { EventLogState, EventLogStore, LoggedEvent, Settlement } from './memory/event-store.js';
export { createMemoryBroker, type MemoryBroker, type MemoryBrokerOptions, openMemoryBroker } from './memory.js';
export { createNatsBus, type NatsBusOptions } from './nats.js';
export { subjectMatches } from './subject.js';
export type * from './types.js';
