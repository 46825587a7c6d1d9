export * from './app.js';
export * from './config.js';
export { IdentityClient, IDENTITY_UNREACHABLE } from './identity-client.js';
