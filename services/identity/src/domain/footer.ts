/**
 * Footer settings: the Display footer switch, display name (the tenant name when empty), Powered by, About /
 * Privacy / Terms each with a show switch, label and URL, and custom links.
 */
export interface FooterSettings {
  showFooter: boolean;
  displayName: string;
  showPoweredBy: boolean;
  poweredByText: string;
  showAbout: boolean;
  aboutLabel: string;
  aboutUrl: string;
  showPrivacy: boolean;
  privacyLabel: string;
  privacyUrl: string;
  showTerms: boolean;
  termsLabel: string;
  termsUrl: string;
  links: { id: string; label: string; url: string; enabled: boolean }[];
}

/** The footer is visible by default, with Powered by, Privacy and Terms; About appears once it has an address. */
export const defaultFooter = (tenantName: string): FooterSettings => ({
  showFooter: true,
  displayName: tenantName,
  showPoweredBy: true,
  poweredByText: 'Powered by Workspace',
  showAbout: false,
  aboutLabel: 'About',
  aboutUrl: '',
  showPrivacy: true,
  privacyLabel: 'Privacy',
  privacyUrl: '/privacy',
  showTerms: true,
  termsLabel: 'Terms',
  termsUrl: '/terms',
  links: [],
});

/** The footer as shown: an empty display name shows the tenant's name. */
export const footerAsShown = (footer: FooterSettings, tenantName: string): FooterSettings => ({
  ...footer,
  displayName: footer.displayName || tenantName,
});
