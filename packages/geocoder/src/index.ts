export * from './backfill.js';
export * from './disclose.js';
export * from './forward.js';
export * from './gazetteer.js';
export * from './nominatim.js';
export * from './reverse.js';
