// One jest run, two projects: fast unit suites, and integration suites against the real PostgreSQL, Kafka and
// MinIO that `make test` starts (they share one set of infrastructure processes and run in band, with
// --testTimeout=120000: they stop and restart brokers).
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

const shared = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.ts$': swc(false), '^.+\\.tsx$': swc(true) },
  moduleNameMapper: {
    '^@workspace/kit$': '<rootDir>/services/kit/src/index.ts',
    '^@workspace/kit/testing$': '<rootDir>/services/kit/src/testing/index.ts',
    '^@workspace/proto$': '<rootDir>/proto/src/index.ts',
    '^@workspace/(identity|notification|cis)$': '<rootDir>/services/$1/src/index.ts',
    '^@workspace/cis/domain$': '<rootDir>/services/cis/src/domain/index.ts',
    '^@workspace/rules$': '<rootDir>/services/rules/src/index.ts',
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
    },
  ],
};
