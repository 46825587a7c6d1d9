// Rules the services and the browser share: pure, no I/O and no Node built-ins (`@workspace/rules`).

export * from './masking.js';
export * from './money.js';
export * from './scopes.js';
export * from './tax-month.js';
export * from './cis-declarations.js';
export * from './tax-year.js';
export * from './identifiers.js';
export * from './words.js';
export * from './staff-app.js';
export * from './modules/schedule.js';
export * from './modules/notes.js';
export * from './modules/chat.js';
export * from './modules/calls.js';
export * from './modules/docs.js';
