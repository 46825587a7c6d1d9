// The slow-operation threshold and the tracing sample rate (drive.md §9, workspace.md: 1000 ms; 0.1): a request
// past 1000 ms is logged as slow, and tracing records a tenth of new traces, keeping an upstream caller's decision.
import { Writable } from 'node:stream';
import { jest } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { accessLog, SLOW_REQUEST_MS, TRACE_SAMPLE_RATIO, traceSampler } from '../src/index.js';
import { allFakeableBut } from '../src/testing/index.js';

function loggedApp(handlerMs: number): { app: express.Express; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(accessLog(pino(sink)));
  app.get('/work', (_req, res) => {
    // The request's time passes on the faked performance clock, not the machine's.
    jest.advanceTimersByTime(handlerMs);
    res.json({ ok: true });
  });
  return { app, lines };
}

describe('slow operations (DRV-501, WS-465)', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: allFakeableBut('performance') });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('DRV-501: a request of 1001 ms is flagged slow (a warning); one of 1000 ms is not', async () => {
    expect(SLOW_REQUEST_MS).toBe(1000);
    const slow = loggedApp(1001);
    await request(slow.app).get('/work').expect(200);
    expect(slow.lines).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        path: '/work',
        durationMs: 1001,
        slow: true,
        level: 40,
      }),
    ]);
    const quick = loggedApp(1000);
    await request(quick.app).get('/work').expect(200);
    expect(quick.lines).toEqual([
      expect.objectContaining({ msg: 'request completed', durationMs: 1000, level: 30 }),
    ]);
    expect(quick.lines[0]).not.toHaveProperty('slow');
  });
});

describe('tracing sample rate (DRV-501, WS-465)', () => {
  const sampled = async (traceId: string, parent?: { sampled: boolean }) => {
    const sampler = await traceSampler();
    const context = parent
      ? trace.setSpanContext(ROOT_CONTEXT, {
          traceId,
          spanId: '00f067aa0ba902b7',
          traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
          isRemote: true,
        })
      : ROOT_CONTEXT;
    const { decision } = sampler.shouldSample(context, traceId, 'GET /work', SpanKind.SERVER, {}, []);
    return decision === tracing.SamplingDecision.RECORD_AND_SAMPLED;
  };

  it('DRV-501: a new trace is sampled at 0.1 of trace ids; a caller’s sampled flag is kept', async () => {
    expect(TRACE_SAMPLE_RATIO).toBe(0.1);
    expect((await traceSampler()).toString()).toMatch(/^ParentBased\{root=TraceIdRatioBased\{0\.1\}/);
    // The ratio sampler reads a trace id as a 32-bit number (its four words XORed) and keeps those under 0.1 of
    // the range: over ids spread evenly across it, one in ten is recorded.
    const spread = Array.from({ length: 1000 }, (_, k) =>
      Math.floor(((k + 0.5) / 1000) * 0xffffffff)
        .toString(16)
        .padStart(32, '0'),
    );
    const decisions = await Promise.all(spread.map((traceId) => sampled(traceId)));
    expect(decisions.filter((decision) => decision)).toHaveLength(100);
    expect(await sampled('00000000000000000000000000000001')).toBe(true);
    expect(await sampled('000000000000000000000000ffffffff')).toBe(false);
    // A caller's decision is kept, whatever the id.
    expect(await sampled('000000000000000000000000ffffffff', { sampled: true })).toBe(true);
    expect(await sampled('00000000000000000000000000000001', { sampled: false })).toBe(false);
  });
});
