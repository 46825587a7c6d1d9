// The share screens' own display rule: a share's public address. Sizes are the file list's formatBytes, the allowed
// ids and the expiry the drive's domain rules (splitAllowedUids, expiryTimestamp). Pure: no React.

/** The share's public address on this origin (the share's url is its path and query). */
export function publicShareUrl(origin: string, sharePath: string): string {
  return `${origin}${sharePath}`;
}
