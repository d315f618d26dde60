/** Component tests: jsdom, compiled by swc; no browser and no server (those are in e2e/). */
module.exports = {
  testEnvironment: '<rootDir>/src/test/jsdom-environment.cjs',
  roots: ['<rootDir>/src'],
  // Jest's default on two cores is one worker; the tests share nothing, and two finish in two thirds of the time.
  maxWorkers: 2,
  testMatch: ['**/__tests__/**/*.test.ts?(x)'],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  moduleNameMapper: {
    '\\.css$': '<rootDir>/src/test/style-stub.cjs',
  },
  // The Markdown renderer and its plugins ship only as ES modules: compile them too.
  transformIgnorePatterns: [],
  transform: {
    '^.+\\.m?js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
};
