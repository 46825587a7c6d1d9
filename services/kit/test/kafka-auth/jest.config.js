// `make test-kafka-auth` only: the integration project's settings, limited to the tests that need the SASL_SSL
// broker of deploy/local/kafka-auth.sh (their names end in .auth-test.ts, so `make test` never collects them).
import { fileURLToPath } from 'node:url';
import base from '../../../../jest.config.js';

const integration = base.projects.find((project) => project.displayName === 'integration');

export default {
  ...integration,
  displayName: 'kafka-auth',
  rootDir: fileURLToPath(new URL('../../../..', import.meta.url)),
  testMatch: ['<rootDir>/services/kit/test/kafka-auth/*.auth-test.ts'],
  testTimeout: 120_000,
};
