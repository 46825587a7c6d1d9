// Masking for display (workspace spec §5), one copy for every service and the browser: @workspace/rules. The CIS
// screens and records name a tax reference a UTR.
export { maskEmail, maskNino, maskPhone, maskTaxReference as maskUtr } from '@workspace/rules';
