// The file list's live subscription (drive.md §4, §8, §9): GET /api/drive/files/stream read with fetch (so a refusal's
// status is known), its `files` events refetching the lists. On a failure it retries up to LISTENER_RETRIES times at
// increasing 1 s steps (1 s, 2 s, 3 s), never on a permission-denied answer (401/403); every failure is logged.
// A stream that opened again starts a fresh count (the service ends each stream when its access token expires).
// Pure: no React; the timers are the global ones (fake timers in the unit tests).

/** The file list listener's retries (drive.md §9): 3 at 1 s steps. */
export const LISTENER_RETRIES = 3;
export const LISTENER_RETRY_STEP_MS = 1000;

/** The wait before retry `attempt` (1-based): 1 s, 2 s, 3 s. */
export const retryDelay = (attempt: number): number => attempt * LISTENER_RETRY_STEP_MS;

/** The stream was refused for lack of permission (401 or 403): the listener stops, without retrying. */
export class PermissionDenied extends Error {
  constructor(readonly status: number) {
    super(`The file list stream was refused (${String(status)})`);
    this.name = 'PermissionDenied';
  }
}

export type ListenerLog = (level: 'warn' | 'error', message: string, error: unknown) => void;

export interface ListenerHooks {
  /**
   * Opens the stream once: calls `opened` once connected and `changed` for each change; resolves when the stream
   * ends, rejects when it fails (a PermissionDenied when refused).
   */
  connect(signal: AbortSignal, opened: () => void, changed: () => void): Promise<void>;
  /** A file changed somewhere the user sees: refetch the lists. */
  onChange(): void;
  /** Connected again after a failure: changes may have been missed, refetch. */
  onReconnect(): void;
  log: ListenerLog;
}

/** Starts listening; the answer stops it (and any retry waiting). */
export function listenForFileChanges(hooks: ListenerHooks): () => void {
  const controller = new AbortController();
  let failures = 0;
  let interrupted = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const failed = (error: unknown) => {
    if (controller.signal.aborted) return;
    interrupted = true;
    if (error instanceof PermissionDenied) {
      hooks.log('error', 'File list listener refused (permission denied): not retried', error);
      return;
    }
    if (failures >= LISTENER_RETRIES) {
      hooks.log(
        'error',
        `File list listener failed after ${String(LISTENER_RETRIES)} retries: live updates stopped`,
        error,
      );
      return;
    }
    failures += 1;
    const delay = retryDelay(failures);
    hooks.log(
      'warn',
      `File list listener failed: retry ${String(failures)} of ${String(LISTENER_RETRIES)} in ${String(delay)} ms`,
      error,
    );
    timer = setTimeout(attempt, delay);
  };

  const opened = () => {
    failures = 0;
    if (interrupted) {
      interrupted = false;
      hooks.onReconnect();
    }
  };

  function attempt() {
    timer = undefined;
    let connecting: Promise<void>;
    try {
      connecting = hooks.connect(controller.signal, opened, () => {
        hooks.onChange();
      });
    } catch (error) {
      failed(error);
      return;
    }
    connecting.then(() => {
      failed(new Error('The file list stream ended'));
    }, failed);
  }

  attempt();
  return () => {
    controller.abort();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Reads Server-Sent Events from text chunks: `onEvent(name, data)` per complete event (comments skipped). */
export function sseReader(onEvent: (event: string, data: string) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  return (chunk) => {
    buffer += chunk;
    let end = buffer.search(/\r\n|\r|\n/);
    while (end >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (data.length > 0 || event) onEvent(event || 'message', data.join('\n'));
        event = '';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      end = buffer.search(/\r\n|\r|\n/);
    }
  };
}

/** One connection to an SSE endpoint over fetch: `changed` on each event named `name`. */
export async function connectEventStream(
  url: string,
  name: string,
  signal: AbortSignal,
  opened: () => void,
  changed: () => void,
  fetcher: typeof fetch = fetch,
): Promise<void> {
  const response = await fetcher(url, {
    headers: { Accept: 'text/event-stream' },
    credentials: 'same-origin',
    cache: 'no-store',
    signal,
  });
  if (response.status === 401 || response.status === 403) throw new PermissionDenied(response.status);
  if (!response.ok || !response.body)
    throw new Error(`The file list stream answered ${String(response.status)}`);
  opened();
  const read = sseReader((event) => {
    if (event === name) changed();
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    read(value);
  }
}
