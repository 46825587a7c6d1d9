// The audit actions the action filter suggests: the services' own lists (`@workspace/proto/actions`, the names they
// publish by), per module. The filter takes any other action name typed in full as well (identity's and the
// notification service's events, which only audit.read sees).
import {
  cisAuditActions,
  cisNoticeActions,
  driveAuditActions,
  type CisNoticeAction,
} from '@workspace/proto/actions';

/** Each module's actions: what its entries' `action` may be. */
const moduleActions: Record<string, readonly string[]> = {
  cis: [...cisAuditActions, ...cisNoticeActions],
  drive: driveAuditActions,
};

/** The suggestions for the modules the reader may see ('all', or their module ids). */
export function suggestedActions(modules: 'all' | string[]): string[] {
  return Object.entries(moduleActions).flatMap(([module, actions]) =>
    modules === 'all' || modules.includes(module) ? actions : [],
  );
}

/**
 * What the actions no person takes are called on screen (a person's actions read well as they are). Keyed by the
 * proto's list, so a notice added there without a name here fails the typecheck.
 */
const NOTICE_NAMES: Record<CisNoticeAction, string> = {
  'cis.deadline.alerted': 'CIS deadline notice',
};

/** An action's name on screen, if it has one besides its code. */
export function actionName(action: string): string | undefined {
  return (NOTICE_NAMES as Record<string, string | undefined>)[action];
}
