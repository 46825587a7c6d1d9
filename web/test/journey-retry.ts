// The browser journeys (web/test/*.int.test.ts) retry a failed test once, as browser suites commonly do in CI
// (Playwright Test's own CI default is two): a real browser on a shared two-core machine meets timing it does not
// control (a page still re-rendering, a minute turning, a port taken) that no service test meets. A test that fails
// twice fails the run; one that passes on its retry is still reported by name on the run's last lines
// (deploy/local/test-totals.mjs), so the flake is seen and fixed, not hidden. ADR 0056.
// Every other suite (services, bff, units) runs once.
import { expect, jest } from '@jest/globals';

if (/[\\/]web[\\/]test[\\/][^\\/]+\.int\.test\.ts$/.test(expect.getState().testPath ?? '')) {
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
}
