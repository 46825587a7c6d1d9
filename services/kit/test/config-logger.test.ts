import { Writable } from 'node:stream';
import { pino } from 'pino';
import { z } from 'zod';
import express from 'express';
import request from 'supertest';
import {
  accessLog,
  authenticate,
  baseConfigSchema,
  ConfigError,
  loadConfig,
  redactedPaths,
} from '../src/index.js';
import { createTestIssuer } from '../src/testing/index.js';

describe('configuration', () => {
  it('applies defaults and coerces numbers', () => {
    const config = loadConfig(baseConfigSchema, {
      DATABASE_URL: 'postgres://u@h/db',
      PORT: '8081',
    });
    expect(config).toMatchObject({
      PORT: 8081,
      BUS: 'kafka',
      LOG_LEVEL: 'info',
      TRUST_PROXY: false,
    });
  });

  it('reports every invalid variable by name, without echoing values', () => {
    const schema = baseConfigSchema.extend({ PII_KEY: z.string().length(64) });
    let error: unknown;
    try {
      loadConfig(schema, {
        LOG_LEVEL: 'chatty',
        PORT: 'x',
        BUS: 'carrier-pigeon',
        PII_KEY: 'secret-value',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues.map((issue) => issue.split(':')[0]);
    expect(issues.sort()).toEqual(['BUS', 'DATABASE_URL', 'LOG_LEVEL', 'PII_KEY', 'PORT']);
    expect((error as Error).message).not.toContain('secret-value');
  });
});

describe('logger redaction', () => {
  it('never writes tokens, cookies, passwords, UTR or NINO', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: { paths: redactedPaths, censor: '[redacted]' } }, sink);
    logger.info({
      req: { headers: { authorization: 'Bearer eyJhbGciOi', cookie: 'sid=abc' } },
      subcontractor: { utr: '1234567890', nino: 'QQ123456C', name: 'Ada' },
      password: 'hunter2',
      body: { token: 'magic-link-token' },
    });
    const output = lines.join('');
    for (const secret of [
      'eyJhbGciOi',
      'sid=abc',
      '1234567890',
      'QQ123456C',
      'hunter2',
      'magic-link-token',
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('Ada');
  });
});

describe('access log', () => {
  it('writes one line per request with the caller, the path without its query string, and no token', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ redact: { paths: redactedPaths, censor: '[redacted]' } }, sink);
    const issuer = await createTestIssuer();
    const app = express();
    app.use(
      accessLog(logger),
      authenticate({ keys: issuer.keys, issuer: issuer.issuer, audience: issuer.audience }),
    );
    app.get('/portal/redeem', (req, res) => {
      req.log.info('handler ran');
      res.json({ ok: true });
    });
    const token = await issuer.token({ tenantId: 'acme', userId: 'u-7', scopes: [] });
    const res = await request(app)
      .get('/portal/redeem?token=magic-secret')
      .set('authorization', `Bearer ${token}`)
      .set('x-request-id', 'req-42');
    expect(res.headers['x-request-id']).toBe('req-42');
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'handler ran', reqId: 'req-42', tenantId: 'acme', userId: 'u-7' }),
      expect.objectContaining({
        msg: 'request completed',
        reqId: 'req-42',
        method: 'GET',
        path: '/portal/redeem',
        status: 200,
        tenantId: 'acme',
        userId: 'u-7',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/magic-secret|eyJ/);
  });
});
