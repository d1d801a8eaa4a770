// Pure helpers shared by the services' domain code. Nothing here performs I/O or imports a runtime package (the bus,
// the database, the host): a domain unit test that imports this package starts in milliseconds.
export * from './agent-control.js';
export * from './country-name.js';
export * from './epcis.js';
export * from './geo.js';
export * from './merkle.js';
export * from './ownership.js';
export * from './photo-alt.js';
export * from './privacy.js';
export * from './search-text.js';
