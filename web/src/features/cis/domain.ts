// The CIS domain rules shared with the cis service (services/cis/src/domain, the package export
// `@workspace/cis/domain`): the same calculation, validation and labels in the browser as on the server. Imported
// by relative path because the package's `./domain` export resolves to dist/ outside development, and the web
// build compiles the TypeScript source itself (the domain has no I/O and no Node built-ins).
export * from '../../../../services/cis/src/domain/index.js';
export type { InvoiceAmounts as CalculatedAmounts } from '../../../../services/cis/src/domain/index.js';
