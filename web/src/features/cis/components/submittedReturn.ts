import type { ConfirmOptions } from '../../../ui/feedback';
import type { Problem } from '../../../ui/problem';

/** The service's refusal of a change into a month whose return is submitted, until the request confirms it. */
const RETURN_SUBMITTED = 'return_submitted';

/** The warning text when `failure` is that refusal (the service words it), else null. */
export function submittedReturnWarning(failure: unknown): string | null {
  const data = (failure as { data?: Problem } | null)?.data;
  return data?.code === RETURN_SUBMITTED && data.detail ? data.detail : null;
}

/**
 * Runs a change; when the service answers that it reaches a submitted return, shows its warning and, if the user goes
 * on, runs it again confirmed. Answers false when the user stopped at the warning.
 */
export async function withSubmittedReturnWarning(
  confirm: (options: ConfirmOptions) => Promise<boolean>,
  change: (confirmSubmittedReturn: boolean) => Promise<unknown>,
): Promise<boolean> {
  try {
    await change(false);
    return true;
  } catch (failure) {
    const warning = submittedReturnWarning(failure);
    if (!warning) throw failure;
    const goOn = await confirm({
      title: 'Return already submitted',
      message: warning,
      confirmText: 'Go on',
      cancelText: 'Stop',
      style: 'warning',
    });
    if (!goOn) return false;
    await change(true);
    return true;
  }
}
