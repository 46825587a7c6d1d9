// The CIS domain: pure rules, no I/O and no Node built-ins, shared by the service and the browser
// (`@workspace/cis/domain`). See docs/cis-rules.md for every choice where the spec gives two readings.

export * from './money.js';
export * from './calculation.js';
export * from './tax-month.js';
export * from './identifiers.js';
export * from './cis300.js';
export * from './masking.js';
export * from './states.js';
export * from './statement-copies.js';
export * from './returns.js';
export * from './return-changes.js';
export * from './validation.js';
export * from './scopes.js';
export * from './permissions.js';
export * from './alerts.js';
export * from './return-periods.js';
export * from './filters.js';
export * from './import-limits.js';
export * from './list-limits.js';
export * from './portal-access.js';
export * from './corrections.js';
export * from './rejection.js';
export * from './identity-keys.js';
