import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries (docs/adr/0027-service-layers-and-import-boundaries.md). ESLint keeps one set of options per rule
// and file, so each files glob below repeats the patterns every file obeys before adding its own.
const acrossPackages = {
  // `../../services/cis/src/domain`, `../../identity/test/support.js`, `../../bff/src`: a package's inside is its
  // own; another package is imported by name, through the entries its package.json exports.
  regex: String.raw`^(\.\./)+(services/)?[\w-]+/(src|test)(/|$)`,
  message:
    'Import another workspace package by its name and exported entry (@workspace/cis/domain, @workspace/identity/testing), not by a relative path into its src/ or test/.',
};
const intoHttp = {
  regex: String.raw`^(\.{1,2}/)+http(/|$)`,
  message:
    'Data flows http -> commands -> db/domain: db/, commands/, domain/, events/ and workers/ never import from http/. Move what both need below http/.',
};
const domainMessage =
  'domain/ holds pure, browser-safe rules: no kit, database, HTTP, Kafka or Node built-ins. Do the I/O in db/, commands/ or http/ and pass values in.';
const domainDependencies = {
  group: ['@workspace/kit', '@workspace/kit/*', 'knex', 'express', 'pg', 'kafkajs', 'node:*'],
  message: domainMessage,
};
// Bare built-in names (`crypto`, `fs/promises`) by exact name: as patterns they would also match a folder of that
// name in a relative path.
const builtins = builtinModules.map((name) => ({ name, message: domainMessage }));
const contractMessage =
  'http/*.schemas.ts and http/contract.ts are browser-safe contract modules (the web imports their types): only zod, the domain and other schemas.';
const contractDependencies = [
  { ...domainDependencies, message: contractMessage },
  { regex: String.raw`^(\.{1,2}/)+(db|commands|events|workers|clients)(/|$)`, message: contractMessage },
];
const restrictedImports = (patterns, paths = []) => [
  'error',
  { paths, patterns: [acrossPackages, ...patterns] },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', 'proto/gen/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      'no-restricted-imports': restrictedImports([]),
    },
  },
  {
    files: ['**/src/{db,commands,events,workers}/**'],
    rules: { 'no-restricted-imports': restrictedImports([intoHttp]) },
  },
  {
    files: ['**/src/http/*.schemas.ts', '**/src/http/contract.ts'],
    rules: {
      'no-restricted-imports': restrictedImports(
        contractDependencies,
        builtins.map((path) => ({ ...path, message: contractMessage })),
      ),
    },
  },
  {
    files: ['**/src/domain/**'],
    rules: { 'no-restricted-imports': restrictedImports([intoHttp, domainDependencies], builtins) },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', '**/*.d.mts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Scripts that talk to a terminal.
    files: ['deploy/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Benchmarks measure one package's internals against another's (the bff's scope cache against identity's).
    files: ['**/bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests read untyped response bodies (supertest's `body: any`) on purpose; asserting on them is the point.
    files: ['**/test/**', '**/bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
);
