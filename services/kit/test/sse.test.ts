import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { serveSse, SseHub } from '../src/http/sse.js';

/*
 * serveSse's filter may answer later (a promise): the stream's messages then wait for it in order, so a filter that
 * re-reads what its caller may see decides the messages after it with what it read (the drive's live list, DRV-387).
 */

const open: Request[] = [];
afterEach(() => {
  // Ends each stream (its heartbeat timer), whatever the test's outcome.
  for (const req of open.splice(0)) req.emit('close');
});

function stream() {
  const written: string[] = [];
  const req = Object.assign(new EventEmitter(), { ctx: undefined }) as unknown as Request;
  open.push(req);
  const res = {
    writableEnded: false,
    status() {
      return res;
    },
    set() {
      return res;
    },
    flushHeaders() {},
    write(chunk: string) {
      if (chunk.startsWith('event: ')) written.push(chunk.split('\n')[1]?.slice('data: '.length) ?? '');
      return true;
    },
    end() {
      res.writableEnded = true;
    },
  };
  return { req, res: res as unknown as Response, written };
}

const hub = () =>
  // Never started: no LISTEN connection; publish() stands in for a notification.
  new SseHub({
    name: 'test',
    databaseUrl: 'postgres://unused@127.0.0.1:1/none',
    channel: 'test',
    parse: () => undefined,
  });

const message = (data: string) => ({ tenantId: 'demo', event: 'change', data });

describe('serveSse', () => {
  it('sends what a boolean filter accepts, at once and in order', () => {
    const sse = hub();
    const { req, res, written } = stream();
    void serveSse(sse, 'demo', req, res, { filter: ({ data }) => data !== 'b' });
    for (const data of ['a', 'b', 'c']) sse.publish(message(data));
    expect(written).toEqual(['a', 'c']);
  });

  it('holds the messages after a filter that answers later, then decides them with what it learnt', async () => {
    const sse = hub();
    const { req, res, written } = stream();
    let allowed = new Set(['a']);
    let release: () => void = () => undefined;
    void serveSse(sse, 'demo', req, res, {
      filter: ({ data }) => {
        if (data !== 'refresh') return allowed.has(data);
        return new Promise<boolean>((resolve) => {
          release = () => {
            allowed = new Set(['a', 'b']);
            resolve(true);
          };
        });
      },
    });
    sse.publish(message('a'));
    sse.publish(message('b'));
    sse.publish(message('refresh'));
    sse.publish(message('b'));
    sse.publish(message('a'));
    expect(written).toEqual(['a']);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['a', 'refresh', 'b', 'a']);
    // Nothing waits any more: the next message goes at once.
    sse.publish(message('b'));
    expect(written).toEqual(['a', 'refresh', 'b', 'a', 'b']);
  });

  it('drops a message whose filter fails, and goes on with the next', async () => {
    const sse = hub();
    const { req, res, written } = stream();
    void serveSse(sse, 'demo', req, res, {
      filter: ({ data }) => (data === 'bad' ? Promise.reject(new Error('no')) : true),
    });
    sse.publish(message('bad'));
    sse.publish(message('good'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['good']);
  });
});
