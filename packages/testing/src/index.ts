export * from './factories.js';
export * from './http.js';
export * from './ledger-verifier.js';
export * from './nats-server.js';
export * from './postgres.js';
export * from './services.js';
export * from './tokens.js';
