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
  // A real agent (NOMAD_E2E_ADDR) is one shared cluster, so its test files take turns.
  maxWorkers: process.env.NOMAD_E2E_ADDR ? 1 : 2,
  testTimeout: 30000,
};
