// The generic HTTP helper's failures (drive.md §8 'Generic HTTP helper'): the message is the body's error field or
// 'HTTP {status}', and the error carries the status and the body's details for a caller that wants more.
import { jest } from '@jest/globals';
import { getJson, HttpError } from '../../src/ui/http';

const answering = (response: Response) => jest.fn<typeof fetch>(() => Promise.resolve(response));
const failureOf = (response: Response) =>
  getJson('/api/thing', answering(response)).then(
    () => {
      throw new Error('the call should have failed');
    },
    (error: unknown) => error as HttpError,
  );

describe('generic HTTP helper errors (DRV-470, DRV-471)', () => {
  it("DRV-470: an empty body gives 'HTTP 502'; a body's error field is the message", async () => {
    const empty = await failureOf(new Response(null, { status: 502 }));
    expect(empty).toBeInstanceOf(HttpError);
    expect(empty.message).toBe('HTTP 502');
    const named = await failureOf(Response.json({ error: 'Quota service unavailable' }, { status: 503 }));
    expect(named.message).toBe('Quota service unavailable');
  });

  it('DRV-471: the error has status and details attached (the body read, or empty when it has none)', async () => {
    const problem = {
      status: 409,
      code: 'conflict',
      detail: 'A file with this name already exists',
      error: 'A file with this name already exists',
    };
    const conflict = await failureOf(
      Response.json(problem, { status: 409, headers: { 'content-type': 'application/problem+json' } }),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.details).toEqual(problem);
    const html = await failureOf(new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(html.status).toBe(502);
    expect(html.details).toEqual({});
  });
});
