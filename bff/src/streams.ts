import { HttpProblem, type Logger } from '@workspace/kit';

/** Whose stream it is: one staff user or one portal subcontractor, and the session that opened it. */
export interface StreamOwner {
  kind: 'staff' | 'portal';
  /** The user (`<tenant>:<uid>`) or subcontractor (`<tenant>:<subcontractor>`) the cap counts against. */
  who: string;
  /** The session's store key: the stream lives as long as the session does. */
  sessionKey: string;
}

export interface SessionStreamsOptions {
  /** Streams one user (or subcontractor) may hold open on this replica; one more is refused with 429. */
  perUser: number;
  /** How often each open stream's session is looked up; a stream whose session has ended is closed. */
  checkIntervalMs: number;
  /** Whether the session is still there (signed out, idle, expired or revoked: false). Not a use of the session. */
  sessionAlive: (kind: StreamOwner['kind'], sessionKey: string) => Promise<boolean>;
  logger: Logger;
}

interface OpenStream {
  owner: StreamOwner;
  close: () => void;
}

export const TOO_MANY_STREAMS = 'Too many live connections are open. Close another tab and try again.';

/**
 * The Server-Sent-Event streams this replica forwards, bound to their sessions: each user holds at most `perUser`
 * at once, and every `checkIntervalMs` the sessions behind the open streams are looked up (one lookup per session);
 * the streams of a session that has ended are closed. An access token's end closes the stream at the service (the
 * kit ends it at the token's exp), and the browser's reconnect then goes through the session check again.
 */
export class SessionStreams {
  private readonly open = new Set<OpenStream>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(private readonly options: SessionStreamsOptions) {}

  /** Registers a stream (429 beyond the user's cap); the answer releases it and is called when it ends. */
  add(owner: StreamOwner, close: () => void): () => void {
    const held = [...this.open].filter((stream) => stream.owner.who === owner.who).length;
    if (held >= this.options.perUser) throw new HttpProblem(429, 'too_many_streams', TOO_MANY_STREAMS);
    const stream: OpenStream = { owner, close };
    this.open.add(stream);
    if (!this.timer) {
      this.timer = setInterval(() => void this.check(), this.options.checkIntervalMs);
      this.timer.unref();
    }
    return () => {
      this.open.delete(stream);
      if (this.open.size === 0) this.stopTimer();
    };
  }

  /** Streams open on this replica (tests, metrics). */
  get size(): number {
    return this.open.size;
  }

  /** Closes every stream (shutdown). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.close();
    this.open.clear();
    this.stopTimer();
  }

  /** Looks up each open stream's session once and closes the streams of those that have ended. */
  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const sessions = new Map<string, StreamOwner>();
      for (const { owner } of this.open) sessions.set(`${owner.kind}:${owner.sessionKey}`, owner);
      const ended = new Set<string>();
      await Promise.all(
        [...sessions].map(async ([id, owner]) => {
          try {
            if (!(await this.options.sessionAlive(owner.kind, owner.sessionKey))) ended.add(id);
          } catch (error) {
            // Unknown is not ended: the next check asks again (identity may be restarting).
            this.options.logger.warn({ err: error }, 'could not check the session of a stream');
          }
        }),
      );
      for (const stream of [...this.open]) {
        if (ended.has(`${stream.owner.kind}:${stream.owner.sessionKey}`)) stream.close();
      }
    } finally {
      this.checking = false;
    }
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
