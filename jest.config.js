import { availableParallelism } from 'node:os';

// Jest runs TypeScript as native ES modules (the project is "type": "module" because
// @middy/core 7 ships ESM only). SWC strips types; `npm run typecheck` type-checks.
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
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
};

/**
 * Two projects, told apart by the file's name so the rule moves with the file:
 * - `unit` (`*.unit.test.ts`, `npm run test:unit`): pure logic, with at most aws-sdk-client-mock
 *   or an in-memory fake at the edges; no server, no subprocess (test/unit-setup.ts refuses both),
 *   no engine run, no CDK synthesis. The whole project runs in seconds.
 * - `integration` (every other `*.test.ts`): the simulator over HTTP, the local engine, the
 *   emulators, CDK synthesis, fuzzing, the bench smoke run, e2e.
 * A new test is integration unless its name says unit: a mislabelled one only runs later.
 * `npm test` runs both.
 * @type {import('jest').Config}
 */
export default {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/*.unit.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/unit-setup.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.unit\\.test\\.ts$'],
    },
  ],
  // One worker per core and one more. Many files spend most of their time waiting rather than
  // computing (a subprocess's real-time backoff, the simulator's scaled clock, a Nomad slow on
  // purpose): ten of the slowest files of a CI run used about 80 s of CPU in 203 and 206 s on two
  // workers, and ran in 114 and 135 s on three (docs/testing.md, "CI time"). Tests that start servers stay isolated per
  // file. A real agent (NOMAD_E2E_ADDR) is one shared cluster, so its test files take turns.
  maxWorkers: process.env.NOMAD_E2E_ADDR ? 1 : availableParallelism() + 1,
  // Every test file starts in a fresh worker. Under --experimental-vm-modules a worker keeps each
  // file's module graph (CDK's among them): over a suite one grew to 4.9 GB resident, and three
  // suites at once filled 24 GB and stalled in the kernel's page reclaim. A limit in bytes would
  // not do: jest-worker compares it with the heap alone, and workers far past 1 GB resident were
  // never replaced under one. A fresh worker costs about 0.1 s a file; one peaks near 600 MB.
  workerIdleMemoryLimit: 0,
  // One hang guard for every test, not a speed target: tests wait on the simulator's state and
  // clock, never on wall time, but on a machine shared with two other suites a test that
  // synthesizes the stack or starts emulators can wait minutes for a core. Speed is measured in
  // bench/. (A real agent's t3 table sets its own, longer guard.)
  testTimeout: 300_000,
  // The IAM-checked files first and the IAM inventory last (test/sequencer.cjs).
  testSequencer: '<rootDir>/test/sequencer.cjs',
};
