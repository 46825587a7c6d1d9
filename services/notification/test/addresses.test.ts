import { notificationConfigSchema } from '../src/config.js';
import { formatMailbox, senderOf } from '../src/domain/addresses.js';

const platform = { name: 'Workspace', address: 'no-reply@workspace.local' };

describe('senderOf (issue 13: display name and Reply-To always, the From address only on a sending domain)', () => {
  test.each([
    [{ fromName: 'Acme', fromAddress: 'a@acme.test' }, '"Acme" <a@acme.test>', 'a@acme.test'],
    [{ fromName: 'Acme', fromAddress: 'a@ACME.test' }, '"Acme" <a@ACME.test>', 'a@ACME.test'],
    [{ fromName: 'Acme', fromAddress: 'a@other.test' }, '"Acme" <no-reply@workspace.local>', 'a@other.test'],
    [
      { fromName: 'Acme', fromAddress: 'a@sub.acme.test' },
      '"Acme" <no-reply@workspace.local>',
      'a@sub.acme.test',
    ],
    [
      { fromName: 'Acme', fromAddress: 'a@other.test', replyTo: 'r@x.test' },
      '"Acme" <no-reply@workspace.local>',
      'r@x.test',
    ],
    [{ fromName: 'Acme' }, '"Acme" <no-reply@workspace.local>', undefined],
    [{}, '"Workspace" <no-reply@workspace.local>', undefined],
  ])('%j → From %s, Reply-To %p', (request, from, replyTo) => {
    expect(senderOf(platform, ['acme.test'], request)).toEqual({ from, ...(replyTo ? { replyTo } : {}) });
  });

  test('a name with quotes, commas or brackets stays one quoted name', () => {
    expect(formatMailbox({ name: 'Smith, "Jones" <Ltd>', address: 'a@b.test' })).toBe(
      '"Smith, \\"Jones\\" <Ltd>" <a@b.test>',
    );
    expect(formatMailbox({ address: 'a@b.test' })).toBe('a@b.test');
  });
});

describe('MAIL_SENDING_DOMAINS', () => {
  const base = {
    DATABASE_URL: 'postgres://u:p@localhost:5432/db',
    INTERNAL_API_TOKEN: 'x'.repeat(32),
    NOTIFICATION_ENCRYPTION_KEYS: `n1:${Buffer.alloc(32).toString('base64')}`,
  };

  test('is a list of domain names, lower-cased; empty by default', () => {
    expect(notificationConfigSchema.safeParse(base).data?.MAIL_SENDING_DOMAINS).toEqual([]);
    expect(
      notificationConfigSchema.safeParse({ ...base, MAIL_SENDING_DOMAINS: ' Acme.test, mail.example.org ' })
        .data?.MAIL_SENDING_DOMAINS,
    ).toEqual(['acme.test', 'mail.example.org']);
  });

  test.each(['acme', 'a@acme.test', 'acme.test;evil.test', '*.acme.test', 'https://acme.test'])(
    'refuses %p',
    (value) => {
      const parsed = notificationConfigSchema.safeParse({ ...base, MAIL_SENDING_DOMAINS: value });
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toContain(
        'Must be a comma-separated list of domain names',
      );
    },
  );
});
