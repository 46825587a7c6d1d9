export * from './config.js';
export * from './service.js';
export * from './client.js';
export * from './sink.js';
export * from './sink-client.js';
export { EMAIL_STATUSES, type EmailStatus } from './domain/delivery.js';
