/** Where an e-mail stands. `sending` while an attempt is in flight; `sent` and `failed` are final. */
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed', 'retrying'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const isFinal = (status: EmailStatus): boolean => status === 'sent' || status === 'failed';

export interface RetryPolicy {
  /** The wait before the n-th retry is `backoffMs[n - 1]`; the last value repeats. */
  backoffMs: readonly number[];
  /** Attempts in all, the first one included. */
  maxAttempts: number;
}

/**
 * Milliseconds to wait after the `attempts`-th failed attempt, with ±10 % jitter so that e-mails that failed
 * together (the relay was down) do not all come back in the same second.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempts: number,
  random: () => number = Math.random,
): number {
  const schedule = policy.backoffMs.length > 0 ? policy.backoffMs : [60_000];
  const base = schedule[Math.min(Math.max(attempts, 1), schedule.length) - 1] ?? 60_000;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** What an SMTP failure means for the e-mail. */
export interface FailureOutcome {
  status: 'retrying' | 'failed';
  /** For `retrying`: when to try again. */
  nextAttemptAt?: Date;
}

/**
 * A 5xx reply is the server's final word on this message (unknown mailbox, refused content): retrying cannot help.
 * Anything else (a 4xx reply, a refused or dropped connection, a timeout) is temporary, and is retried until the
 * attempts run out.
 */
export function isPermanentFailure(responseCode: number | undefined): boolean {
  return responseCode !== undefined && responseCode >= 500 && responseCode < 600;
}

export function failureOutcome(
  policy: RetryPolicy,
  attempts: number,
  responseCode: number | undefined,
  now: Date,
  random: () => number = Math.random,
): FailureOutcome {
  if (isPermanentFailure(responseCode) || attempts >= policy.maxAttempts) return { status: 'failed' };
  return {
    status: 'retrying',
    nextAttemptAt: new Date(now.getTime() + retryDelayMs(policy, attempts, random)),
  };
}

export interface SmtpErrorLike {
  message?: unknown;
  code?: unknown;
  responseCode?: unknown;
}

/**
 * A one-line description of a send error that is safe to store and show: the error code, the server's reply code
 * and the first line of the message, at most 300 characters, with the SMTP credentials blanked in case a server
 * echoed them.
 */
export function describeSmtpError(error: unknown, secrets: readonly (string | undefined)[] = []): string {
  const candidate = (typeof error === 'object' && error !== null ? error : {}) as SmtpErrorLike;
  const code = typeof candidate.code === 'string' ? candidate.code : 'ERROR';
  const reply = typeof candidate.responseCode === 'number' ? ` ${candidate.responseCode}` : '';
  const raw =
    typeof candidate.message === 'string' ? candidate.message : error instanceof Error ? error.message : '';
  let message = raw.split(/\r?\n/)[0]?.trim() ?? '';
  for (const secret of secrets) if (secret) message = message.split(secret).join('[redacted]');
  const line = `${code}${reply}: ${message || 'the message could not be sent'}`;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

export function responseCodeOf(error: unknown): number | undefined {
  const code = (error as SmtpErrorLike | undefined)?.responseCode;
  return typeof code === 'number' ? code : undefined;
}

/** Attachments may add up to this much (decoded); above it the request is refused. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** Decoded size of standard base64 text (padding accounted), without decoding it. */
export function base64DecodedSize(base64: string): number {
  const clean = base64.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
