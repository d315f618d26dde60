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
  // A test server starting on a busy machine (CI on two cores) can take half a minute by itself.
  testTimeout: 60000,
  // Two files at a time: on the embedded database every test server has its own copy; on
  // PostgreSQL each worker has a database of its own (test/setup/worker-database.ts), because
  // some files count rows. TEST_WORKERS in test/setup/test-database.ts must match.
  maxWorkers: 2,
  setupFiles: ['<rootDir>/test/setup/worker-database.ts'],
};
