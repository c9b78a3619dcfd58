// Scenario: a run whose plan ends it (the job not found) never loads the local engine: the
// terminal runs Validate input and Plan first (lib/engines/local/plan-first.ts) and imports the
// engine, the definition and aws-local-stepfunctions only for a plan with work in it. The engine
// module is stood in for by one that records that it was loaded; a job that exists loads it.
import { jest } from '@jest/globals';
import type { ExecutionResult } from '../../../lib/engines/local/types';

let engineLoads = 0;
jest.unstable_mockModule('../../../lib/engines/local/engine', () => {
  engineLoads++;
  return {
    runRestartLocally: async () => ({
      result: Promise.resolve({
        status: 'SUCCEEDED',
        output: {},
        executions: [],
      } as unknown as ExecutionResult),
      pause: () => undefined,
      resume: () => undefined,
      requestCancel: async () => undefined,
    }),
  };
});
const { runCommand } = await import('../../e2e/helpers/run-command');
const { simpleJob } = await import('../../steps/helpers/harness');
const { notOnAgent, openE2e } = await import('../../e2e/helpers/e2e-target');

const JOB = 'engine_load_web';
const describeSim = notOnAgent('engine load') ? describe.skip : describe;

describeSim('loading the local engine at the terminal', () => {
  it('loads no engine for a job that is not found, and loads it for one that is', async () => {
    // Arrange
    const target = await openE2e({ jobs: [simpleJob(JOB, 'service', 1)] });
    try {
      await target.waitRunning(JOB, 1);

      // Act
      const notFound = await runCommand(['-yes', 'no_such_job'], target.env);
      const loadsAfterNotFound = engineLoads;
      const found = await runCommand(['-yes', JOB], target.env);

      // Assert
      expect(notFound.stderr).toBe('No job(s) with prefix or ID "no_such_job" found\n');
      expect(notFound.code).toBe(1);
      expect(loadsAfterNotFound).toBe(0);
      expect(found.code).toBe(0);
      expect(engineLoads).toBe(1);
    } finally {
      await target.close();
    }
  });
});
