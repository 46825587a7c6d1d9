/** The spec's search debounce. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface Debounced<A extends unknown[]> {
  /** Schedules `fn` with these arguments `ms` from now, replacing any call still waiting. */
  call(...args: A): void;
  /** Drops the waiting call. */
  cancel(): void;
}

/** A trailing-edge debounce: only the last call of a burst runs, `ms` after it. Pure: no React, no DOM. */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms = SEARCH_DEBOUNCE_MS,
): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call: (...args: A) => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        fn(...args);
      }, ms);
    },
    cancel: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
