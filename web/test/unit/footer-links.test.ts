// Security review L14: the footer opens only a path on this site in the same tab; `//host` (refused by identity
// since, but possibly saved before) opens in a new tab like any other host.
import type { FooterSettings } from '@workspace/identity/contract';
import { footerLinks } from '../../src/features/shell/footerLinks';

const footer = (urls: string[]): FooterSettings => ({
  showFooter: true,
  displayName: 'Demo',
  showPoweredBy: false,
  poweredByText: '',
  showAbout: false,
  aboutLabel: 'About',
  aboutUrl: '',
  showPrivacy: true,
  privacyLabel: 'Privacy',
  privacyUrl: '/privacy',
  showTerms: false,
  termsLabel: 'Terms',
  termsUrl: '',
  links: urls.map((url, index) => ({ id: `l${index}`, label: url, url, enabled: true })),
});

describe('footer links', () => {
  it('open in the same tab only for a path on this site', () => {
    const links = footerLinks(footer(['//evil.example', '/\\evil.example', 'https://example.com', '/help']));
    expect(links.map((link) => [link.url, link.sameTab])).toEqual([
      ['/privacy', true],
      ['//evil.example', false],
      ['/\\evil.example', false],
      ['https://example.com', false],
      ['/help', true],
    ]);
  });
});
