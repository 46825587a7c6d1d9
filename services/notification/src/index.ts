export * from './config.js';
export * from './service.js';
export * from './client/notification-client.js';
export * from './dev-sink/sink.js';
export * from './dev-sink/sink-client.js';
export { EMAIL_STATUSES, type EmailStatus } from './domain/delivery.js';
