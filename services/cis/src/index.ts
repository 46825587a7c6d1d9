export * from './config.js';
export * from './service.js';
export type { Mailer } from './clients/mailer.js';
