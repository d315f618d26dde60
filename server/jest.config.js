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
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 30000,
  // Two files at a time: on the embedded database every test server has its own copy; on
  // PostgreSQL each worker has a database of its own (test/setup/worker-database.ts), because
  // some files count rows. TEST_WORKERS in test/setup/test-database.ts must match.
  maxWorkers: 2,
  setupFiles: ['<rootDir>/test/setup/worker-database.ts'],
};
