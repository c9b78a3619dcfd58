/**
 * Scenario: a console "Redrive" of a run that did not succeed. Step Functions resumes it at the
 * state that did not succeed, with that state's input, mid-batch and without the job's lock (its
 * end released it). Run through the synthesized workflow and the local engine against the
 * simulator: a run is stopped as it enters a step after taking the job (as a console Stop would), then
 * redriven from there (`$$.Execution.RedriveCount` 1). The redriven execution must end in
 * `ExecutionRedriven`, whose cause says to start a new run, with no Nomad request after the
 * redrive.
 */
import type { RestartInput } from '../../lib/restart/input';
import { FailStates, TaskStates } from '../../lib/workflow/state-names';
import { runWorkflow, runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';

const JOB = 'web';
const requestCount = (counters: Record<string, number>) => counters['total'] ?? 0;

describe('a redriven execution', () => {
  const harness = harnessPerTest();

  it.each([TaskStates.checkDeployments, TaskStates.restartBatch])(
    'ends in ExecutionRedriven at "%s" with no Nomad request, and says to start a new run',
    async (fromState) => {
      // Arrange: a run stopped as it enters the state, which its redrive goes on from.
      const h = await harness.startRunning(simpleJob(JOB, 'service', 2));
      await waitAllRunning(h, JOB, 2);
      const stop = new AbortController();
      const stopped = await runWorkflow(h, restartOptions(JOB, { yes: true }), {
        signal: stop.signal,
        interceptInvocation: async (stateName, invoke) => {
          if (stateName !== fromState) return invoke();
          stop.abort();
          return new Promise(() => undefined);
        },
      });
      // What the state was given: the output of the state before it.
      const stateInput = stopped.exits.at(-1)?.output;
      expect(stopped.result.status).toBe('ABORTED');
      const before = requestCount(h.sim.control.counters());

      // Act
      const redriven = await runWorkflowInput(h, stateInput as RestartInput, { redrive: { fromState } });

      // Assert
      expect(redriven.result).toMatchObject({ status: 'FAILED', error: FailStates.executionRedriven });
      expect(redriven.result.cause).toContain('start a new run');
      expect(requestCount(h.sim.control.counters())).toBe(before);
      expect(redriven.entered).toEqual([fromState, 'Redriven?', 'Read redrive error', 'ExecutionRedriven']);
    },
  );
});
