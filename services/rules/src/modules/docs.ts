// The documents' scopes (workspace.md §6, drive.md §6), verbatim.
// Declared here until the documents service is built; the declaration moves to that service's domain then.
import type { ModuleScopes } from '../scopes.js';

export const docsScopes = {
  catalogue: [
    { scope: 'docs.view', module: 'docs', kind: 'coarse', description: 'view documents' },
    { scope: 'docs.edit', module: 'docs', kind: 'coarse', description: 'edit documents' },
    { scope: 'docs.manage', module: 'docs', kind: 'coarse', description: 'manage documents' },
  ],
  implications: {
    // manage > edit > view.
    'docs.edit': ['docs.view'],
    'docs.manage': ['docs.edit', 'docs.view'],
  },
} as const satisfies ModuleScopes;
