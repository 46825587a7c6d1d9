export * from './scopes.js';
export * from './logo.js';
