export * from './config.js';
export * from './service.js';
export * from './commands/seed-tenant.js';
export * from './domain/index.js';
