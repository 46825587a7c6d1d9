// The bff in a process of its own for the benchmarks, as it is deployed: `startBffProcess` forks this file, which
// starts the bff with the given settings and answers the parent's 'cpu' (its CPU time so far) and 'stop' messages.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bffConfigSchema, startBff } from '../src/index.js';

/** The bff's settings (the environment variables of bff/src/config.ts). */
export type BffSettings = Record<string, string>;

type ToParent = { ready: true } | { cpu: NodeJS.CpuUsage } | { failed: string };
type ToChild = 'cpu' | 'stop';

export interface BffProcess {
  url: string;
  /** The process's CPU time so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

function nextMessage<T>(child: ChildProcess, pick: (message: ToParent) => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (message: ToParent) => {
      if ('failed' in message) {
        done();
        reject(new Error(`the bff process failed: ${message.failed}`));
        return;
      }
      const picked = pick(message);
      if (picked === undefined) return;
      done();
      resolve(picked);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`the bff process exited (code ${code ?? 'none'}) before answering`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the bff process did not answer within 60 s'));
    }, 60_000);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Forks a bff with `settings` (PORT must be set) and waits until it listens. BENCH_LOG_LEVEL shows its logs;
 * BENCH_CPU_PROF_DIR writes its V8 CPU profile there.
 */
export async function startBffProcess(settings: BffSettings): Promise<BffProcess> {
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    stdio: ['ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit', 'ipc'],
    execArgv: profileDir
      ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profileDir}`]
      : process.execArgv,
    env: { ...process.env, BFF_BENCH_SETTINGS: JSON.stringify(settings) },
  });
  await nextMessage(child, (message) => ('ready' in message ? true : undefined));
  return {
    url: `http://127.0.0.1:${settings.PORT ?? ''}`,
    cpuMs: async () => {
      const answer = nextMessage(child, (message) => ('cpu' in message ? message.cpu : undefined));
      child.send('cpu' satisfies ToChild);
      const usage = await answer;
      return (usage.user + usage.system) / 1000;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        if (child.connected) child.send('stop' satisfies ToChild);
        else child.kill('SIGTERM');
      }),
  };
}

async function serve(): Promise<void> {
  const send = (message: ToParent) => process.send?.(message);
  try {
    const settings = JSON.parse(process.env.BFF_BENCH_SETTINGS ?? '{}') as BffSettings;
    const bff = await startBff(
      bffConfigSchema.parse({ LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', ...settings }),
    );
    const quit = () => {
      void bff.shutdown('bench done').finally(() => process.exit(0));
    };
    process.on('message', (message: ToChild) => {
      if (message === 'cpu') send({ cpu: process.cpuUsage() });
      else quit();
    });
    process.on('disconnect', quit);
    send({ ready: true });
  } catch (error) {
    send({ failed: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}

if (process.argv[2] === '--serve' && process.env.BFF_BENCH_SETTINGS) await serve();
