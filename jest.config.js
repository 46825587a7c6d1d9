// One jest run, two projects: fast unit suites, and integration suites against the real PostgreSQL, Kafka and
// MinIO that `make test` starts (they share one set of infrastructure processes and run one file at a time, with
// --testTimeout=120000: they stop and restart brokers).
import { sourceEntries } from './deploy/local/workspaces.mjs';

const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

// `@workspace/<package>[/<entry>]` resolves to the TypeScript source its package's `exports` name for the
// `development` condition, for every workspace package and entry: a new package or entry needs no edit here.
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const workspaceEntries = Object.fromEntries(
  sourceEntries().map(({ specifier, source }) => [`^${escape(specifier)}$`, `<rootDir>/${source}`]),
);

const shared = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.ts$': swc(false), '^.+\\.tsx$': swc(true) },
  moduleNameMapper: {
    ...workspaceEntries,
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
};

export default {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/**/test/**/*.test.ts', '!**/*.int.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/**/test/**/*.int.test.ts'],
      // The browser journeys retry a failed test once, reported by name (ADR 0056); nothing else retries.
      setupFilesAfterEnv: ['<rootDir>/web/test/journey-retry.ts'],
    },
  ],
};
