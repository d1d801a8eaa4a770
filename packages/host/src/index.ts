export * from './client.js';
export * from './clock.js';
export * from './config.js';
export * from './ledger-recorder.js';
export * from './logger.js';
export * from './ownership.js';
export * from './service.js';
export * from './standalone.js';
