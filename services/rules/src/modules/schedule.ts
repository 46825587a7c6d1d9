// The schedule's scopes (workspace.md §6): coarse strings verbatim; fine names chosen (docs/scopes.md).
// Declared here until the schedule service is built; the declaration moves to that service's domain then.
import type { ModuleScopes } from '../scopes.js';

const scheduleFine = [
  'schedule.view_own',
  'schedule.view_team',
  'schedule.view_all',
  'schedule.edit_own',
  'schedule.edit_team',
  'schedule.manage_calendars',
] as const;

export const scheduleScopes = {
  catalogue: [
    { scope: 'schedule.read', module: 'schedule', kind: 'coarse', description: 'view the schedule' },
    { scope: 'schedule.write', module: 'schedule', kind: 'coarse', description: 'add or change events' },
    { scope: 'schedule.manage', module: 'schedule', kind: 'coarse', description: 'manage the schedule' },
    {
      scope: 'schedule.view_own',
      module: 'schedule',
      kind: 'fine',
      description: 'view your own calendars and events',
    },
    {
      scope: 'schedule.view_team',
      module: 'schedule',
      kind: 'fine',
      description: "view your team's calendars and events",
    },
    { scope: 'schedule.view_all', module: 'schedule', kind: 'fine', description: 'view all calendars' },
    {
      scope: 'schedule.edit_own',
      module: 'schedule',
      kind: 'fine',
      description: 'add or edit events in your own calendars',
    },
    {
      scope: 'schedule.edit_team',
      module: 'schedule',
      kind: 'fine',
      description: "add or edit events in your team's calendars",
    },
    { scope: 'schedule.manage_calendars', module: 'schedule', kind: 'fine', description: 'manage calendars' },
  ],
  implications: {
    // Schedule: fine scopes map to the coarse ones (view_own, view_team, view_all -> schedule.read; edit_own,
    // edit_team, manage_calendars -> schedule.write); a coarse scope alone grants only the narrowest fine scope;
    // wider fine scopes include the narrower ones; manage grants the whole module.
    'schedule.read': ['schedule.view_own'],
    'schedule.write': ['schedule.read', 'schedule.edit_own'],
    'schedule.manage': ['schedule.read', 'schedule.write', ...scheduleFine],
    'schedule.view_own': ['schedule.read'],
    'schedule.view_team': ['schedule.read', 'schedule.view_own'],
    'schedule.view_all': ['schedule.read', 'schedule.view_team'],
    'schedule.edit_own': ['schedule.write', 'schedule.view_own'],
    'schedule.edit_team': ['schedule.write', 'schedule.edit_own', 'schedule.view_team'],
    'schedule.manage_calendars': ['schedule.write', 'schedule.view_all'],
  },
} as const satisfies ModuleScopes;
