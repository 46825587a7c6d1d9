import type { Server } from 'node:http';
import type { Express } from 'express';
import type { LifecycleState } from './http/app.js';
import type { Logger } from './logger.js';

export interface RunOptions {
  app: Express;
  port: number;
  host?: string;
  logger: Logger;
  lifecycle: LifecycleState;
  /** Run in order after the server has stopped taking requests and drained: relay flush, consumers, pools. */
  onShutdown: (() => Promise<void>)[];
  shutdownTimeoutMs?: number;
  /** Milliseconds to keep answering (with `/readyz` at 503) before closing, so load balancers move traffic away. */
  drainDelayMs?: number;
  /**
   * The operational endpoints' own app and port (MANAGEMENT_PORT; 0 picks a free one). It keeps answering probes
   * (`/readyz` 503 while draining) until the shutdown steps have run, then closes last.
   */
  management?: { app: Express; port: number };
}

export interface RunningService {
  server: Server;
  port: number;
  /** The management server's port, when there is one. */
  managementPort?: number;
  shutdown(reason?: string): Promise<void>;
}

async function listen(app: Express, port: number, host: string): Promise<{ server: Server; port: number }> {
  const server = app.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}

/**
 * Listens, and on SIGTERM/SIGINT shuts down gracefully: readiness goes to 503, the server stops accepting
 * connections and lets in-flight requests finish (idle keep-alive sockets are closed), then the shutdown steps
 * run. A hard timeout ends whatever is left.
 */
export async function runService(options: RunOptions): Promise<RunningService> {
  const host = options.host ?? '0.0.0.0';
  const { server, port } = await listen(options.app, options.port, host);
  const management = options.management
    ? await listen(options.management.app, options.management.port, host)
    : undefined;
  options.logger.info({ port, ...(management ? { managementPort: management.port } : {}) }, 'listening');

  let shuttingDown: Promise<void> | undefined;
  const shutdown = (reason = 'shutdown') => {
    shuttingDown ??= (async () => {
      options.logger.info({ reason }, 'shutting down');
      options.lifecycle.draining = true;
      const timeout = setTimeout(() => {
        options.logger.error('shutdown timed out; closing remaining connections');
        server.closeAllConnections();
      }, options.shutdownTimeoutMs ?? 25_000);
      timeout.unref();
      if (options.drainDelayMs) await new Promise((resolve) => setTimeout(resolve, options.drainDelayMs));
      const closed = new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      server.closeIdleConnections();
      await closed;
      for (const step of options.onShutdown) {
        try {
          await step();
        } catch (error) {
          options.logger.error({ err: error }, 'shutdown step failed');
        }
      }
      if (management) {
        await new Promise<void>((resolve) => {
          management.server.close(() => {
            resolve();
          });
          management.server.closeAllConnections();
        });
      }
      clearTimeout(timeout);
      options.logger.info('stopped');
    })();
    return shuttingDown;
  };
  return { server, port, ...(management ? { managementPort: management.port } : {}), shutdown };
}

/**
 * Wires SIGTERM and SIGINT to a graceful shutdown, then exits. If the shutdown steps themselves hang past
 * `hardLimitMs`, the process exits anyway (non-zero) so the orchestrator is not kept waiting.
 */
export function exitOnSignals(service: RunningService, logger: Logger, hardLimitMs = 30_000): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        logger.error({ hardLimitMs }, 'shutdown exceeded its hard limit; exiting');
        process.exit(1);
      }, hardLimitMs).unref();
      service.shutdown(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
