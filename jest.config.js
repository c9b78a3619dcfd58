// Jest runs TypeScript as native ES modules (the project is "type": "module" because
// @middy/core 7 ships ESM only). SWC strips types; `npm run typecheck` type-checks.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
      },
    ],
  },
  // Two cores on CI: one worker per core, and tests that start servers stay isolated per file.
  maxWorkers: 2,
  testTimeout: 30000,
};
