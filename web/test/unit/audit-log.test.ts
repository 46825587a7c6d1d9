// The web's audit_logEvent (workspace.md §7): logAuditEvent sends the action, target and payload to the bff (tenant and
// actor are the session's, never in the body), retries what may pass later with the same idempotency key, and never
// throws: a failure is swallowed with a warning.
import { jest } from '@jest/globals';
import { AUDIT_ATTEMPTS, AUDIT_EVENTS_PATH, logAuditEvent, type AuditLogDeps } from '../../src/ui/audit-log';

interface Sent {
  url: string;
  init: RequestInit;
}

function depsAnswering(...answers: (Response | Error)[]) {
  const sent: Sent[] = [];
  const warnings: { message: string; detail: unknown }[] = [];
  const waits: number[] = [];
  let keys = 0;
  const deps: AuditLogDeps = {
    fetch: jest.fn<typeof fetch>((url, init) => {
      sent.push({ url: url as string, init: init ?? {} });
      const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer as Response);
    }),
    csrfToken: () => 'csrf-1',
    newKey: () => `key-${++keys}`,
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    warn: (message, detail) => {
      warnings.push({ message, detail });
    },
  };
  return { deps, sent, warnings, waits };
}

const accepted = () => Response.json({ accepted: true, id: 'a1' }, { status: 202 });
const header = (sent: Sent | undefined, name: string) => (sent?.init.headers as Record<string, string>)[name];

describe('logAuditEvent (audit_logEvent, WS-365, WS-367)', () => {
  it('WS-365: the action, target and payload reach the bff in one POST with the CSRF token; no tenant or actor in the body', async () => {
    const { deps, sent, warnings } = depsAnswering(accepted());
    await expect(
      logAuditEvent('SHARE_LINK_COPIED', 'share-9', { fileId: 'f-1' }, deps),
    ).resolves.toBeUndefined();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(AUDIT_EVENTS_PATH);
    expect(sent[0]?.init.method).toBe('POST');
    expect(header(sent[0], 'x-csrf-token')).toBe('csrf-1');
    expect(header(sent[0], 'x-idempotency-key')).toBe('key-1');
    expect(JSON.parse(sent[0]?.init.body as string)).toEqual({
      action: 'SHARE_LINK_COPIED',
      targetId: 'share-9',
      payload: { fileId: 'f-1' },
    });
    expect(warnings).toEqual([]);
  });

  it('WS-367: an unreachable audit service does not throw: tried three times with the same key, then a warning', async () => {
    const { deps, sent, warnings, waits } = depsAnswering(new TypeError('Failed to fetch'));
    await expect(logAuditEvent('cis.export.invoices', 'demo', {}, deps)).resolves.toBeUndefined();
    expect(sent).toHaveLength(AUDIT_ATTEMPTS);
    expect(new Set(sent.map((call) => header(call, 'x-idempotency-key')))).toEqual(new Set(['key-1']));
    expect(waits).toEqual([1000, 2000]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toBe('Audit event cis.export.invoices could not be logged');
    expect(warnings[0]?.detail).toBeInstanceOf(TypeError);
  });

  it('WS-367: a 503 then a 202 is logged once, without a warning', async () => {
    const { deps, sent, warnings } = depsAnswering(new Response(null, { status: 503 }), accepted());
    await logAuditEvent('FILE_DOWNLOADED', 'f-2', {}, deps);
    expect(sent).toHaveLength(2);
    expect(header(sent[1], 'x-idempotency-key')).toBe(header(sent[0], 'x-idempotency-key'));
    expect(warnings).toEqual([]);
  });

  it('WS-367: a refusal (403, 400) is not retried and is swallowed with a warning', async () => {
    for (const status of [403, 400]) {
      const { deps, sent, warnings } = depsAnswering(Response.json({ detail: 'no' }, { status }));
      await expect(logAuditEvent('SHARE_LINK_COPIED', 's', {}, deps)).resolves.toBeUndefined();
      expect(sent).toHaveLength(1);
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]?.detail)).toContain(`HTTP ${status}`);
    }
  });

  it('WS-367: nothing the browser does can make it throw (the key, the token and even the warning failing)', async () => {
    const { deps } = depsAnswering(accepted());
    const broken: AuditLogDeps = {
      ...deps,
      newKey: () => {
        throw new Error('no crypto');
      },
      warn: () => {
        throw new Error('no console');
      },
    };
    await expect(logAuditEvent('SHARE_LINK_COPIED', 's', {}, broken)).resolves.toBeUndefined();
    const noToken: AuditLogDeps = {
      ...deps,
      csrfToken: () => {
        throw new Error('no session');
      },
    };
    await expect(logAuditEvent('SHARE_LINK_COPIED', 's', {}, noToken)).resolves.toBeUndefined();
  });
});
