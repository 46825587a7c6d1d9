// The drive's pure rules: browser-safe (the web imports them as @workspace/drive/domain).
export * from './access.js';
export * from './constants.js';
export * from './scopes.js';
export * from './file-types.js';
export * from './names.js';
export * from './upload-policy.js';
export * from './storage-summary.js';
export * from './file-list.js';
export * from './folders.js';
