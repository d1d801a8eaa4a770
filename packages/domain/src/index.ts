// Pure helpers shared by the services' domain code. Nothing here performs I/O or imports a runtime package (the bus,
// the database, the host): a domain unit test that imports this package starts in milliseconds.
export * from './merkle.js';
