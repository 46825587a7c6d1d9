import { createLogger, HttpProblem } from '@workspace/kit';
import { SessionStreams, TOO_MANY_STREAMS, type StreamOwner } from '../src/streams.js';

/*
 * The bff's streams bound to their sessions (security review 2026-11-26, L6): a cap per user, and the streams of an
 * ended session closed at the next check. The check is called directly here (no timer is waited for).
 */

const owner = (who: string, sessionKey: string): StreamOwner => ({ kind: 'staff', who, sessionKey });

function streams(alive: Set<string>, perUser = 2) {
  return new SessionStreams({
    perUser,
    // Long enough never to fire during a test: the checks below are called directly.
    checkIntervalMs: 300_000,
    sessionAlive: (_kind, key) => Promise.resolve(alive.has(key)),
    logger: createLogger({ name: 'test', level: 'silent' }),
  });
}

describe('SessionStreams', () => {
  it('refuses a user’s stream beyond the cap with 429 too_many_streams, and takes one again once one is released', () => {
    const registry = streams(new Set(['s1']));
    const releaseFirst = registry.add(owner('staff:demo:u1', 's1'), () => undefined);
    registry.add(owner('staff:demo:u1', 's1'), () => undefined);
    let refusal: unknown;
    try {
      registry.add(owner('staff:demo:u1', 's1'), () => undefined);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HttpProblem);
    expect(refusal).toMatchObject({ status: 429, code: 'too_many_streams', message: TOO_MANY_STREAMS });
    // Another user is counted apart.
    expect(() => registry.add(owner('staff:demo:u2', 's2'), () => undefined)).not.toThrow();
    releaseFirst();
    expect(() => registry.add(owner('staff:demo:u1', 's1'), () => undefined)).not.toThrow();
    registry.closeAll();
  });

  it('closes the streams of sessions that have ended at the next check, and only those', async () => {
    const alive = new Set(['s1', 's2']);
    const registry = streams(alive, 5);
    const closed: string[] = [];
    const open = (who: string, key: string, name: string) => {
      const release = registry.add(owner(who, key), () => {
        closed.push(name);
        release();
      });
    };
    open('staff:demo:u1', 's1', 'a');
    open('staff:demo:u1', 's1', 'b');
    open('staff:demo:u2', 's2', 'c');
    await registry.check();
    expect(closed).toEqual([]);

    alive.delete('s1');
    await registry.check();
    expect(closed.sort()).toEqual(['a', 'b']);
    expect(registry.size).toBe(1);
    registry.closeAll();
    expect(closed.sort()).toEqual(['a', 'b', 'c']);
  });

  it('keeps a stream when its session cannot be looked up (identity restarting): unknown is not ended', async () => {
    const registry = new SessionStreams({
      perUser: 2,
      checkIntervalMs: 300_000,
      sessionAlive: () => Promise.reject(new Error('identity is not reachable')),
      logger: createLogger({ name: 'test', level: 'silent' }),
    });
    let closed = false;
    registry.add(owner('staff:demo:u1', 's1'), () => {
      closed = true;
    });
    await registry.check();
    expect(closed).toBe(false);
    registry.closeAll();
  });
});
