import { Writable } from 'node:stream';
import { pino } from 'pino';
import { z } from 'zod';
import { baseConfigSchema, ConfigError, loadConfig, redactedPaths } from '../src/index.js';

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
