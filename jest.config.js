/** @type {import('jest').Config} */
const transform = {
  '^.+\\.(t|j)s$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const moduleNameMapper = {
  // The SDK's sources import each other as ESM does, with the `.js` of their build: here, the `.ts`.
  '^(\\.{1,2}/.*)\\.js$': '$1',
  '^@tally/(domain|db|idempotency|events|http-kit|client)$': '<rootDir>/packages/$1/src/index.ts',
  '^@tally/(api|gateway|server)$': '<rootDir>/apps/$1/src/index.ts',
};
const common = { transform, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  // Two on CI (a 2-core machine: the suites' servers, child processes, PostgreSQL and Chromium share
  // the cores with the workers); TALLY_JEST_WORKERS overrides it (a number or a share like '50%').
  maxWorkers: process.env.TALLY_JEST_WORKERS || (process.env.CI ? 2 : '50%'),
  // The slowest suites start first (CI has no cache of the last run's durations).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Integration tests start real servers and processes; hooks get the same budget as tests.
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/packages/domain/src/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/packages/!(domain)/src/**/*.test.ts',
        '<rootDir>/apps/*/src/**/*.test.ts',
        '<rootDir>/test/**/*.test.ts',
      ],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
