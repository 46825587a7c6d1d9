import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the sink accepted, as its HTTP API shows it. */
export interface SinkMessage {
  id: string;
  /** The SMTP envelope: who the client said it was from and the recipients it gave (Cc included). */
  envelope: { from: string; to: string[] };
  from: string;
  /** The From header's display name ('' without one). */
  fromName: string;
  to: string[];
  cc: string[];
  replyTo: string[];
  subject: string;
  messageId: string | null;
  date: string;
  receivedAt: string;
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string; size: number }[];
}

interface StoredMessage extends SinkMessage {
  contents: Buffer[];
}

export interface SmtpSinkOptions {
  /** 0 (the default) picks a free port. */
  smtpPort?: number;
  httpPort?: number;
  /** Default 127.0.0.1: the sink accepts anything, so it is not meant to be reachable from elsewhere. */
  host?: string;
  /** Messages kept; the oldest go first. Default 500. */
  maxMessages?: number;
}

/** How the sink refuses messages for a while: a reply code (451 temporary, 550 permanent) and for how long. */
export interface SinkFailure {
  code: number;
  message: string;
  /** Messages still to refuse; undefined when refusing by time. */
  remaining?: number;
  /** Refuse until this time (epoch ms); undefined when refusing by count. */
  until?: number;
}

export interface RunningSmtpSink {
  host: string;
  smtpPort: number;
  httpPort: number;
  /** The HTTP API, e.g. http://127.0.0.1:8025. */
  httpUrl: string;
  messages(): SinkMessage[];
  clear(): void;
  /** Refuse the next `count` messages (at DATA) with `code`. */
  failNext(count: number, code?: number): void;
  /** Refuse every message for `ms` milliseconds with `code`. */
  failFor(ms: number, code?: number): void;
  /** Accept messages again. */
  recover(): void;
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 30 * 1024 * 1024;

const addressesOf = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) =>
    group.value.flatMap((entry) => (entry.address ? [entry.address] : [])),
  );

const reasonFor = (code: number) =>
  code >= 500
    ? 'Requested action not taken: mailbox unavailable'
    : 'Requested action aborted: try again later';

/**
 * A real SMTP server for local runs and tests (smtp-server, no authentication, accepts every message), which
 * parses what it receives (mailparser) and keeps the latest messages in memory behind a small HTTP API:
 *
 * - `GET /messages`: every message kept, oldest first; `GET /messages/:id`: one
 * - `GET /messages/:id/attachments/:index`: an attachment's bytes
 * - `DELETE /messages`: forget them all
 * - `POST /control/fail` `{count?, forMs?, untilMs?, code?}`: refuse messages (451 by default) for a count, a
 *   duration or until an epoch time; `DELETE /control/fail`: accept again; `GET /control/fail`: the current rule
 */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<RunningSmtpSink> {
  const host = options.host ?? '127.0.0.1';
  const maxMessages = options.maxMessages ?? 500;
  const stored: StoredMessage[] = [];
  let failure: SinkFailure | undefined;

  const shouldRefuse = (): SinkFailure | undefined => {
    if (!failure) return undefined;
    if (failure.until !== undefined) {
      if (Date.now() < failure.until) return failure;
      failure = undefined;
      return undefined;
    }
    if (failure.remaining !== undefined && failure.remaining > 0) {
      const current = failure;
      failure = failure.remaining > 1 ? { ...failure, remaining: failure.remaining - 1 } : undefined;
      return current;
    }
    failure = undefined;
    return undefined;
  };

  const smtp = new SMTPServer({
    name: 'workspace-smtp-sink',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    // Clients here send and quit; do not keep a stopping sink waiting on a stray connection.
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const refusal = shouldRefuse();
        if (refusal) {
          const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          callback(error);
          return;
        }
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message exceeds the size limit'), { responseCode: 552 }));
          return;
        }
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            const envelopeFrom = session.envelope.mailFrom;
            stored.push({
              id: randomUUID(),
              envelope: {
                from: envelopeFrom ? envelopeFrom.address : '',
                to: session.envelope.rcptTo.map((recipient) => recipient.address),
              },
              from: addressesOf(mail.from)[0] ?? '',
              fromName: mail.from?.value[0]?.name ?? '',
              to: addressesOf(mail.to),
              cc: addressesOf(mail.cc),
              replyTo: addressesOf(mail.replyTo),
              subject: mail.subject ?? '',
              messageId: mail.messageId ?? null,
              date: (mail.date ?? new Date()).toISOString(),
              receivedAt: new Date().toISOString(),
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : null,
              attachments: mail.attachments.map((attachment) => ({
                filename: attachment.filename ?? '',
                contentType: attachment.contentType,
                size: attachment.size,
              })),
              contents: mail.attachments.map((attachment) => attachment.content),
            });
            if (stored.length > maxMessages) stored.splice(0, stored.length - maxMessages);
            callback(null, 'Queued');
          },
          (error: unknown) => {
            callback(error instanceof Error ? error : new Error('The message could not be parsed'));
          },
        );
      });
    },
  });

  const view = ({ contents: _contents, ...message }: StoredMessage): SinkMessage => message;

  const sink = {
    messages: () => stored.map(view),
    clear: () => {
      stored.length = 0;
    },
    failNext: (count: number, code = 451) => {
      failure = count > 0 ? { code, message: reasonFor(code), remaining: count } : undefined;
    },
    failFor: (ms: number, code = 451) => {
      failure = ms > 0 ? { code, message: reasonFor(code), until: Date.now() + ms } : undefined;
    },
    recover: () => {
      failure = undefined;
    },
  };

  type Reply = { status: number; json?: unknown } | { status: 200; bytes: Buffer; contentType: string };

  async function route(req: IncomingMessage): Promise<Reply> {
    const path = new URL(req.url ?? '/', 'http://sink').pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/healthz') return { status: 200, json: { status: 'ok' } };
    if (method === 'GET' && path === '/messages') return { status: 200, json: sink.messages() };
    if (method === 'DELETE' && path === '/messages') {
      sink.clear();
      return { status: 204 };
    }
    const attachmentPath = /^\/messages\/([^/]+)\/attachments\/(\d+)$/.exec(path);
    if (method === 'GET' && attachmentPath) {
      const message = stored.find((candidate) => candidate.id === attachmentPath[1]);
      const index = Number(attachmentPath[2]);
      const bytes = message?.contents[index];
      if (!message || !bytes) return { status: 404, json: { error: 'no such attachment' } };
      return {
        status: 200,
        bytes,
        contentType: message.attachments[index]?.contentType ?? 'application/octet-stream',
      };
    }
    const messagePath = /^\/messages\/([^/]+)$/.exec(path);
    if (method === 'GET' && messagePath) {
      const message = stored.find((candidate) => candidate.id === messagePath[1]);
      return message
        ? { status: 200, json: view(message) }
        : { status: 404, json: { error: 'no such message' } };
    }
    if (path === '/control/fail' && method === 'GET')
      return { status: 200, json: { failing: failure ?? null } };
    if (path === '/control/fail' && method === 'DELETE') {
      sink.recover();
      return { status: 204 };
    }
    if (path === '/control/fail' && method === 'POST') {
      const body = (await readJson(req)) as {
        count?: unknown;
        forMs?: unknown;
        untilMs?: unknown;
        code?: unknown;
      };
      const code = body.code ?? 451;
      if (typeof code !== 'number' || !Number.isInteger(code) || code < 400 || code > 599) {
        return { status: 400, json: { error: 'code must be an SMTP reply code from 400 to 599' } };
      }
      if (typeof body.count === 'number') sink.failNext(body.count, code);
      else if (typeof body.forMs === 'number') sink.failFor(body.forMs, code);
      else if (typeof body.untilMs === 'number') sink.failFor(body.untilMs - Date.now(), code);
      else return { status: 400, json: { error: 'give count, forMs or untilMs' } };
      return { status: 200, json: { failing: failure ?? null } };
    }
    return { status: 404, json: { error: 'not found' } };
  }

  const http = createServer((req, res) => {
    route(req).then(
      (reply) => {
        if ('bytes' in reply) {
          res.writeHead(200, { 'content-type': reply.contentType, 'content-length': reply.bytes.length });
          res.end(reply.bytes);
        } else if (reply.json === undefined) {
          res.writeHead(reply.status).end();
        } else {
          res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
        }
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal error"}');
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(options.smtpPort ?? 0, host, () => {
      smtp.server.off('error', reject);
      resolve();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.httpPort ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const httpPort = (http.address() as AddressInfo).port;

  return {
    ...sink,
    host,
    smtpPort,
    httpPort,
    httpUrl: `http://${host}:${httpPort}`,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => {
          http.close(() => {
            resolve();
          });
        }),
        new Promise<void>((resolve) => {
          smtp.close(() => {
            resolve();
          });
        }),
      ]);
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('control body too large');
    chunks.push(chunk);
  }
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return {};
  }
}
