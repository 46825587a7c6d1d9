import { footerLinkTarget } from '@workspace/identity/appearance';
import type { FooterSettings } from '@workspace/identity/contract';

export interface FooterLink {
  key: string;
  label: string;
  url: string;
  /** A path on this site opens in the same tab; anything else (another host, `//host` saved before it was refused) in a new one. */
  sameTab: boolean;
}

const link = (key: string, label: string, url: string): FooterLink => ({
  key,
  label,
  url,
  sameTab: footerLinkTarget(url) === 'same-site',
});

/** The links the footer shows, in order: About, Privacy, Terms, then the enabled custom links. */
export function footerLinks(footer: FooterSettings): FooterLink[] {
  return [
    ...(footer.showAbout && footer.aboutUrl ? [link('about', footer.aboutLabel, footer.aboutUrl)] : []),
    ...(footer.showPrivacy && footer.privacyUrl
      ? [link('privacy', footer.privacyLabel, footer.privacyUrl)]
      : []),
    ...(footer.showTerms && footer.termsUrl ? [link('terms', footer.termsLabel, footer.termsUrl)] : []),
    ...footer.links
      .filter((custom) => custom.enabled)
      .map((custom) => link(custom.id, custom.label, custom.url)),
  ];
}
