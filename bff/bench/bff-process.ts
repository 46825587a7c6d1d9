// The bff in a process of its own for the benchmarks, as it is deployed: `startBffProcess` forks this file, which
// starts the bff with the given settings and answers the parent's 'cpu' (its CPU time so far) and 'stop' messages.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextMessage } from '../../services/kit/bench/server-process.js';
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

/** The node flags of a forked server: the parent's, plus a CPU profile when BENCH_CPU_PROF_DIR is set. */
export function serverExecArgv(): string[] {
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  return profileDir ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profileDir}`] : process.execArgv;
}

/** Asks a forked server to stop ('stop' message), killing it after 10 s. */
export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send('stop');
    else child.kill('SIGTERM');
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
  const pick =
    <T>(select: (message: ToParent) => T | undefined) =>
    (message: ToParent) => {
      if ('failed' in message) throw new Error(`the bff process failed: ${message.failed}`);
      return select(message);
    };
  await nextMessage(
    child,
    pick((message) => ('ready' in message ? true : undefined)),
    'the bff process',
  );
  return {
    url: `http://127.0.0.1:${settings.PORT ?? ''}`,
    cpuMs: async () => {
      const answer = nextMessage(
        child,
        pick((message) => ('cpu' in message ? message.cpu : undefined)),
        'the bff process',
      );
      child.send('cpu' satisfies ToChild);
      const usage = await answer;
      return (usage.user + usage.system) / 1000;
    },
    stop: () => stopServer(child),
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
