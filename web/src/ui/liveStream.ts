/**
 * After a stream that failed for good (a 401 or 503 answer, which EventSource does not retry), the next attempt;
 * EventSource reconnects a dropped stream itself.
 */
export const STREAM_RESTART_MS = 15_000;

export interface LiveStreamHandlers {
  /** What each named event of the stream does. */
  events: Record<string, (event: MessageEvent<string>) => void>;
  /** The stream is back after an interruption (dropped, or failed and opened again): events may have been missed. */
  onReconnect?: () => void;
}

/**
 * One EventSource on `url` for as long as the page needs it (the shell's live updates, the bell's count): dropped
 * streams are reconnected by EventSource, a stream that failed for good is opened again after STREAM_RESTART_MS.
 * Returns what closes it for good. Where there is no EventSource, nothing is opened.
 */
export function openLiveStream(url: string, { events, onReconnect }: LiveStreamHandlers): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  let source: EventSource | undefined;
  let restart: ReturnType<typeof setTimeout> | undefined;
  let interrupted = false;
  let stopped = false;
  const open = () => {
    const stream = new EventSource(url);
    source = stream;
    for (const [name, handle] of Object.entries(events)) stream.addEventListener(name, handle);
    stream.addEventListener('open', () => {
      if (!interrupted) return;
      interrupted = false;
      onReconnect?.();
    });
    stream.addEventListener('error', () => {
      interrupted = true;
      if (stream.readyState !== EventSource.CLOSED || stopped) return;
      restart = setTimeout(open, STREAM_RESTART_MS);
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(restart);
    source?.close();
  };
}
