// The modules whose scopes make up the product's catalogue: the only list of modules. Each module declares its
// scopes, implications and role templates in its own domain (modules without a service yet, in @workspace/rules);
// a new module adds its declaration here. The order is the catalogue's.
import { cisScopes } from '@workspace/cis/domain';
import { driveScopes } from '@workspace/drive/domain';
import { callsScopes, chatScopes, docsScopes, notesScopes, scheduleScopes } from '@workspace/rules';
import { workspaceScopes } from './workspace-scopes.js';

export const scopeModules = [
  scheduleScopes,
  notesScopes,
  chatScopes,
  callsScopes,
  docsScopes,
  workspaceScopes,
  cisScopes,
  driveScopes,
] as const;
