// Security review L14: a footer link is a path on this site or an http(s) address, never `//host` or `/\host`
// (which browsers open as another host), and the web opens only a real path in the same tab.
import { footerLinkTarget } from '../src/domain/appearance.js';
import { footerSettings } from '../src/http/tenant.schemas.js';
import { defaultFooter } from '../src/domain/footer.js';

const withLink = (url: string) => ({
  ...defaultFooter('Demo'),
  links: [{ id: 'l1', label: 'Link', url, enabled: true }],
});
const urlErrors = (url: string) => {
  const parsed = footerSettings.safeParse({ ...withLink(url), privacyUrl: url });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('footer link addresses', () => {
  it.each([
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'evil.example',
  ])('refuses %j with the form message', (url) => {
    expect(footerLinkTarget(url)).toBe('invalid');
    expect(urlErrors(url)).toEqual([
      'privacyUrl: Enter a web address (https://…) or a path (/…)',
      'links.0.url: Enter a web address (https://…) or a path (/…)',
    ]);
  });

  it.each([
    ['/privacy', 'same-site'],
    ['/', 'same-site'],
    ['/help/a//b', 'same-site'],
    ['https://example.com/terms', 'external'],
    ['http://example.com', 'external'],
  ] as const)('accepts %j (%s)', (url, target) => {
    expect(footerLinkTarget(url)).toBe(target);
    expect(urlErrors(url)).toEqual([]);
  });
});
