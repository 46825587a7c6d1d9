import type { ChildProcess } from 'node:child_process';

/**
 * The first message of `child` that `pick` maps to a value (a `pick` that throws rejects with its error); rejects
 * when the process exits first or after `timeoutMs`. Shared by the benchmarks that fork server processes.
 */
// M names the caller's message type (IPC messages arrive untyped); it is used once on purpose.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function nextMessage<M, T>(
  child: ChildProcess,
  pick: (message: M) => T | undefined,
  what = 'the server process',
  timeoutMs = 120_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (message: M) => {
      let picked: T | undefined;
      try {
        picked = pick(message);
      } catch (error) {
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (picked === undefined) return;
      done();
      resolve(picked);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`${what} exited (code ${code ?? 'none'}) before answering`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what} did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}
