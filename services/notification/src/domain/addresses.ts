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

/** The domain of an address, lower case. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** The distinct recipient domains, sorted: what events may say about where an e-mail went. */
export function recipientDomains(addresses: readonly string[]): string[] {
  return [...new Set(addresses.map(domainOf))].sort();
}
