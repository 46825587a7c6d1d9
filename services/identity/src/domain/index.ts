export * from './scopes.js';
export * from './logo.js';
export * from './grants.js';
