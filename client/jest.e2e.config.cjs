/**
 * End-to-end tests: the built client served by the built API server, driven in Chromium.
 * Run `npm run build` at the repository root first; these tests build nothing themselves.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.e2e.test.ts'],
  // Starting the server (a fresh embedded database) and a browser takes seconds, not milliseconds.
  testTimeout: 120_000,
  // Two files at a time, as the server suite runs: a file spends much of its time waiting on its
  // server and its browser.
  maxWorkers: 2,
  // One migrated embedded database for the run, copied by each test's server (e2e/api-server.ts).
  globalSetup: '<rootDir>/e2e/global-setup.ts',
  globalTeardown: '<rootDir>/e2e/global-teardown.ts',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
};
