// The chat's scopes (workspace.md §6), verbatim.
// Declared here until the chat service is built; the declaration moves to that service's domain then.
import type { ModuleScopes } from '../scopes.js';

export const chatScopes = {
  catalogue: [
    { scope: 'chat.messages.view', module: 'chat', kind: 'coarse', description: 'view chat messages' },
    { scope: 'chat.messages.send', module: 'chat', kind: 'coarse', description: 'send chat messages' },
    { scope: 'chat.groups.manage', module: 'chat', kind: 'coarse', description: 'manage chat groups' },
    { scope: 'chat.calls.voice', module: 'chat', kind: 'fine', description: 'start voice calls' },
    { scope: 'chat.calls.video', module: 'chat', kind: 'fine', description: 'start video calls' },
  ],
  implications: {
    'chat.messages.send': ['chat.messages.view'],
    'chat.groups.manage': ['chat.messages.view', 'chat.messages.send'],
  },
} as const satisfies ModuleScopes;
