export * from './config.js';
export * from './service.js';
export * from './seed.js';
export * from './domain/index.js';
