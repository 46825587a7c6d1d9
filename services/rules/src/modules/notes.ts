// The notes' scopes (workspace.md §6): notes.share is chosen; the rest verbatim.
// Declared here until the notes service is built; the declaration moves to that service's domain then.
import type { ModuleScopes } from '../scopes.js';

export const notesScopes = {
  catalogue: [
    { scope: 'notes.view', module: 'notes', kind: 'coarse', description: 'view notes' },
    { scope: 'notes.create', module: 'notes', kind: 'coarse', description: 'create notes' },
    { scope: 'notes.edit', module: 'notes', kind: 'coarse', description: 'edit notes' },
    { scope: 'notes.delete', module: 'notes', kind: 'coarse', description: 'delete notes' },
    { scope: 'notes.share', module: 'notes', kind: 'fine', description: 'share notes' },
    { scope: 'notes.manage_all', module: 'notes', kind: 'global', description: 'manage all notes' },
  ],
  implications: {
    // Notes: every notes action needs to see the note; notes.manage_all implies all notes scopes.
    'notes.create': ['notes.view'],
    'notes.edit': ['notes.view'],
    'notes.delete': ['notes.view'],
    'notes.share': ['notes.view'],
    'notes.manage_all': ['notes.view', 'notes.create', 'notes.edit', 'notes.delete', 'notes.share'],
  },
} as const satisfies ModuleScopes;
