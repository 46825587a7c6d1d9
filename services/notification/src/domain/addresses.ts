/** `name@domain`, without spaces, angle brackets or a second `@`: the shape every recipient must have. */
const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/** A bare address such as name@example.com (no display name). */
export function isEmailAddress(value: string): boolean {
  return ADDRESS.test(value);
}

export interface Mailbox {
  name?: string;
  address: string;
}

/** Parses `address` or `Display Name <address>`; undefined when it is neither. */
export function parseMailbox(value: string): Mailbox | undefined {
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  if (named) {
    const address = named[2]?.trim() ?? '';
    if (!ADDRESS.test(address)) return undefined;
    const name = named[1]?.trim().replace(/^"(.*)"$/, '$1') ?? '';
    return name ? { name, address } : { address };
  }
  return ADDRESS.test(trimmed) ? { address: trimmed } : undefined;
}

/** A domain name such as mail.example.com: labels of letters, digits and hyphens, at least two of them. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

export function isDomainName(value: string): boolean {
  return DOMAIN.test(value);
}

/** The domain of an address, lower case. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** The distinct recipient domains, sorted: what events may say about where an e-mail went. */
export function recipientDomains(addresses: readonly string[]): string[] {
  return [...new Set(addresses.map(domainOf))].sort();
}

/** A display name as a quoted string (RFC 5322), so commas, brackets or quotes in it never split the header. */
function quotedName(name: string): string {
  return `"${name.replace(/["\\]/g, '\\$&')}"`;
}

/** A mailbox as a header value: `"Name" <address>`, or the bare address without a name. */
export function formatMailbox(mailbox: Mailbox): string {
  return mailbox.name ? `${quotedName(mailbox.name)} <${mailbox.address}>` : mailbox.address;
}

/** Whether `address` is on one of the domains set up to send (SPF, DKIM), its subdomains not included. */
export function onSendingDomain(address: string, sendingDomains: readonly string[]): boolean {
  const domain = domainOf(address);
  return sendingDomains.some((sending) => sending.toLowerCase() === domain);
}

/** What a caller asks of the sender: the name people see, the address it would like to send from. */
export interface SenderRequest {
  fromName?: string | undefined;
  fromAddress?: string | undefined;
  replyTo?: string | undefined;
}

/**
 * The From and Reply-To of an e-mail, the way mail providers accept them. A message whose From is on a domain that
 * has not authorised this relay (SPF, DKIM, DMARC) is refused or filed as spam, so:
 * - the display name asked for is always shown;
 * - the From address asked for is used only on a domain set up to send (MAIL_SENDING_DOMAINS); otherwise the
 *   platform's address (MAIL_FROM) carries the name;
 * - replies always reach the sender asked for: Reply-To is the one given, else the From address asked for.
 */
export function senderOf(
  platform: Mailbox,
  sendingDomains: readonly string[],
  request: SenderRequest,
): { from: string; replyTo?: string } {
  const asked = request.fromAddress;
  const address = asked && onSendingDomain(asked, sendingDomains) ? asked : platform.address;
  const name = request.fromName ?? platform.name;
  const replyTo = request.replyTo ?? asked;
  return {
    from: formatMailbox(name ? { name, address } : { address }),
    ...(replyTo ? { replyTo } : {}),
  };
}
