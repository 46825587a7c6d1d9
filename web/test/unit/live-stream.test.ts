// The live streams of the shell and the bell (web/src/ui/liveStream.ts) under fake timers: each named event reaches
// its handler, a stream back from an interruption calls onReconnect once, a stream that failed for good (CLOSED) is
// opened again after STREAM_RESTART_MS, and closing it stops every retry. EventSource is the browser's; Node has none,
// so a stand-in of its few members the helper uses takes its place.
import { jest } from '@jest/globals';
import { openLiveStream, STREAM_RESTART_MS } from '../../src/ui/liveStream';

class StandInEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: StandInEventSource[] = [];
  readyState = StandInEventSource.CONNECTING;
  closed = false;
  private readonly listeners = new Map<string, ((event: { data: string }) => void)[]>();
  constructor(readonly url: string) {
    StandInEventSource.opened.push(this);
  }
  addEventListener(name: string, listener: (event: { data: string }) => void): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = StandInEventSource.CLOSED;
  }
  emit(name: string, data = ''): void {
    if (name === 'open') this.readyState = StandInEventSource.OPEN;
    for (const listener of this.listeners.get(name) ?? []) listener({ data });
  }
}

const latest = () => StandInEventSource.opened.at(-1)!;

beforeEach(() => {
  jest.useFakeTimers();
  StandInEventSource.opened = [];
  (globalThis as { EventSource?: unknown }).EventSource = StandInEventSource;
});
afterEach(() => {
  jest.useRealTimers();
  delete (globalThis as { EventSource?: unknown }).EventSource;
});

describe('a live stream', () => {
  it('hands each named event to its handler, and refetches once after a dropped stream comes back', () => {
    const seen: string[] = [];
    let reconnects = 0;
    const close = openLiveStream('/api/live', {
      events: { tenant: (event) => seen.push(`tenant ${event.data}`), roles: () => seen.push('roles') },
      onReconnect: () => (reconnects += 1),
    });
    const stream = latest();
    expect(stream.url).toBe('/api/live');
    stream.emit('open');
    stream.emit('tenant', '{"changed":["logo"]}');
    stream.emit('roles');
    expect(seen).toEqual(['tenant {"changed":["logo"]}', 'roles']);
    expect(reconnects).toBe(0);
    // Dropped: EventSource reconnects it itself (still CONNECTING), no new stream is opened.
    stream.readyState = StandInEventSource.CONNECTING;
    stream.emit('error');
    jest.advanceTimersByTime(STREAM_RESTART_MS);
    expect(StandInEventSource.opened).toHaveLength(1);
    stream.emit('open');
    stream.emit('open');
    expect(reconnects).toBe(1);
    close();
    expect(stream.closed).toBe(true);
  });

  it('opens a stream that failed for good again after STREAM_RESTART_MS, and drops a pending restart when closed', () => {
    let reconnects = 0;
    const close = openLiveStream('/api/notification/stream', {
      events: {},
      onReconnect: () => (reconnects += 1),
    });
    const first = latest();
    first.readyState = StandInEventSource.CLOSED;
    first.emit('error');
    jest.advanceTimersByTime(STREAM_RESTART_MS - 1);
    expect(StandInEventSource.opened).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(StandInEventSource.opened).toHaveLength(2);
    latest().emit('open');
    expect(reconnects).toBe(1);
    // Closed for good: a pending restart is dropped.
    latest().readyState = StandInEventSource.CLOSED;
    latest().emit('error');
    close();
    jest.advanceTimersByTime(STREAM_RESTART_MS * 2);
    expect(StandInEventSource.opened).toHaveLength(2);
    expect(latest().closed).toBe(true);
  });

  it('opens nothing where the browser has no EventSource', () => {
    delete (globalThis as { EventSource?: unknown }).EventSource;
    const close = openLiveStream('/api/live', { events: {} });
    close();
    expect(StandInEventSource.opened).toHaveLength(0);
  });
});
