// The calls' scope and the calls button gate (workspace.md §6).
// Declared here until the calls service is built; the declaration moves to that service's domain then.
import { passesScopeCheck, type ModuleScopes, type ScopeCheckOptions } from '../scopes.js';

export const callsScopes = {
  catalogue: [
    { scope: 'calls.room.create', module: 'calls', kind: 'fine', description: 'create call rooms' },
  ],
} as const satisfies ModuleScopes;

/** The entitlement calls need (workspace.md §6). */
export const CALLS_ENTITLEMENT = 'calls.voip';
/** Any one of these scopes lets a user start calls. */
export const CALL_SCOPES = Object.freeze([
  'calls.room.create',
  'chat.calls.voice',
  'chat.calls.video',
] as const);
export const CALLS_UPGRADE_MESSAGE = 'Upgrade to enable Calls';
export const CALLS_FORBIDDEN_MESSAGE = "You don't have permission to start calls";

export type CallsGate = { allowed: true; reason: null } | { allowed: false; reason: string };

/**
 * The calls button gate: the tenant needs the calls.voip entitlement (else 'Upgrade to enable Calls', checked
 * first), and the user one of the call scopes (else "You don't have permission to start calls"). The call scopes
 * are not system scopes.
 */
export function canStartCalls(
  entitlements: Iterable<string>,
  scopes: Iterable<string>,
  opts: ScopeCheckOptions = {},
): CallsGate {
  if (!new Set(entitlements).has(CALLS_ENTITLEMENT)) return { allowed: false, reason: CALLS_UPGRADE_MESSAGE };
  const held = new Set(scopes);
  if (!CALL_SCOPES.some((scope) => passesScopeCheck(held, scope, false, opts)))
    return { allowed: false, reason: CALLS_FORBIDDEN_MESSAGE };
  return { allowed: true, reason: null };
}
