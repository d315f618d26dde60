/** Integration tests start the real server; unit tests live beside the code in __tests__/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
      },
    ],
  },
  reporters: ['default', '<rootDir>/test/setup/skipped-tests-reporter.js'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 30000,
  // On the embedded database every test server has its own copy, so files run two at a time; on
  // PostgreSQL they share one database, and some count its rows, so they run one at a time.
  maxWorkers: process.env.DATABASE_URL ? 1 : 2,
};
