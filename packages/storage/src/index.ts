export * from './config.js';
export * from './limit.js';
export * from './local.js';
export * from './s3.js';
export * from './signing.js';
export * from './types.js';
