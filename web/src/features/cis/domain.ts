// The CIS domain rules shared with the cis service (its package export `@workspace/cis/domain`): the same
// calculation, validation and labels in the browser as on the server. The web build compiles the TypeScript source
// (web/vite.config.ts resolves workspace entries to their source; the domain has no I/O and no Node built-ins).
export * from '@workspace/cis/domain';
export type { InvoiceAmounts as CalculatedAmounts } from '@workspace/cis/domain';
