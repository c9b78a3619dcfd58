// Scenario: the ASL extracted from the synthesized stack runs unchanged in aws-local-stepfunctions
// (the local engine's runtime), each Lambda Task bound by name to the real exported handler, over
// a fake RestartSteps standing in for the engine (it plans 3 batches of 2 allocations). It shows
// the definition is runnable, in place and for a system-job reschedule (the eval-trigger path),
// that the lock is released on success and on failure, and how many states a batch costs.
import { jest } from '@jest/globals';
import { TaskFailure } from '../../lib/engines/local/private/task-failures';
import type { ProgressEvent } from '../../lib/restart/events';
import { summarizeRun } from '../../lib/restart/run-summary';
import { startingProgress } from '../../lib/steps/plan/plan-step';
import type { BatchState, Decision, PlanRef } from '../../lib/workflow/payloads';
import type { RestartSteps, RestartStepsDeps } from '../../lib/workflow/restart-steps';
import type { Asl } from '../constructs/helpers/asl';
import { cachedTestStackAsl } from '../constructs/helpers/cached-test-stack';
import { restartOptions } from '../fixtures/restart-options';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { runFacts } from '../restart/helpers/run-facts';

// Quiet handler logs (the Logger reads its level when the handler modules load, below).
process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

let steps: RestartSteps;
jest.unstable_mockModule('../../lib/steps/kit/steps-factory', () => ({
  createRestartSteps: (_deps: RestartStepsDeps) => steps,
}));
const { StateMachine } = await import('aws-local-stepfunctions');
const { TASK_STATE_HANDLERS, ASK_STATE_NAME, FlowStates } = await import('../../lib/workflow');
const { localStores } = await import('../../lib/stores/from-env');
type Handler = (event: unknown, context: unknown) => Promise<unknown>;
// One at a time: jest's ESM loader does not like concurrent imports of shared modules.
const handlers: Record<string, Handler> = {};
for (const id of new Set(Object.values(TASK_STATE_HANDLERS))) {
  handlers[id] = ((await import(`../../lambdas/${id}.ts`)) as { handler: Handler }).handler;
}

const BATCHES = 3;
const SIZE = 2;
/** Slices of "Await health" run per batch index in the current scenario. */
const healthCalls = new Map<number, number>();
const lockKey = { namespace: 'default', jobId: 'web' };
const ev = (e: ProgressEvent) => [e];

/** A fake engine: 3 batches of 2; system reschedules go through stop → evaluate → await. */
function fakeSteps(opts: { system: boolean; failOnBatch?: number; healthSlices?: number }): RestartSteps {
  const plan: PlanRef = {
    planKey: 'runs/x/plan.json',
    jobId: 'web',
    namespace: 'default',
    jobType: opts.system ? 'system' : 'service',
    allocationCount: BATCHES * SIZE,
    batchSize: SIZE,
    batchCount: BATCHES,
    triggerEvaluations: opts.system,
  };
  const batch = (index: number, done: boolean): BatchState => ({
    index,
    size: SIZE,
    startedAt: 1,
    stopIndex: opts.system ? 7 : 0,
    done,
    cursor: null,
    errorCount: 0,
    unrecoverable: false,
  });
  return {
    plan: async () => {
      const progress = startingProgress(restartOptions('web'));
      const decision: Decision = { action: 'batch', waitSeconds: 0, question: null };
      return { plan, progress, decision, events: ev({ type: 'restart-started', time: 1, count: 6 }) };
    },
    checkDeployments: async (i) => ({ blocked: false, progress: i.progress, events: [] }),
    // No -bake-time in these runs: Decide never chooses `bake`.
    bake: async () => {
      throw new Error('bake not expected');
    },
    restartBatch: async (i) => {
      if (i.progress.nextBatch === opts.failOnBatch) throw new Error('boom in restart batch');
      return { batch: batch(i.progress.nextBatch, !opts.system), events: [] };
    },
    triggerEvaluations: async (i) => ({ batch: i.batch, events: [] }),
    awaitBatch: async (i) => ({ done: true, cursor: null, batch: i.batch, events: [] }),
    awaitHealth: async (i) => {
      // Each batch's health takes `healthSlices` slices (the Lambda returns before its timeout).
      const slice = (healthCalls.get(i.batch.index) ?? 0) + 1;
      healthCalls.set(i.batch.index, slice);
      return { done: slice >= (opts.healthSlices ?? 1), cursor: null, batch: i.batch, events: [] };
    },
    decide: async (i) => {
      const nextBatch = i.progress.nextBatch + 1;
      const progress = {
        ...i.progress,
        nextBatch,
        batchesThisExecution: i.progress.batchesThisExecution + 1,
        restarted: i.progress.restarted + SIZE,
      };
      const action = nextBatch >= BATCHES ? 'finish' : 'batch';
      return { progress, decision: { action, waitSeconds: 0, question: null }, events: [] };
    },
    applyAnswer: async () => {
      throw new Error('no questions in this scenario');
    },
    finish: async (i) => ({
      summary: summarizeRun(
        runFacts({
          jobId: 'web',
          planned: i.progress?.restarted ?? 0,
          restarted: i.progress?.restarted ?? 0,
          startedAt: null,
          finishedAt: 2,
        }),
      ),
      events: ev({ type: 'finished', time: 2, errors: [], canceled: false }),
    }),
  };
}

let asl: Asl;
beforeAll(async () => {
  asl = await cachedTestStackAsl();
  process.env['NOMAD_ADDR'] = 'http://127.0.0.1:4646';
  // Fake steps, no Nomad: the job's shared lock (a Nomad variable) is tested against the simulator.
  process.env['NOMAD_RESTART_VARIABLES_LOCK'] = 'false';
  delete process.env['NOMAD_TOKEN_SECRET_ARN'];
});

async function run(input: Record<string, string | boolean>, executionId: string) {
  const overrides = Object.fromEntries(
    Object.entries(TASK_STATE_HANDLERS)
      .filter(([state]) => state !== ASK_STATE_NAME)
      .map(([state, id]) => [
        state,
        // A function's error reaches Catch as on AWS: the runtime's JSON as the cause.
        async (event: unknown) => {
          try {
            return (await handlers[id]?.(event, lambdaContext())) as never;
          } catch (error) {
            throw TaskFailure.fromLambda(error);
          }
        },
      ]),
  );
  const machine = new StateMachine(asl as never, { validationOptions: { checkArn: true, checkPaths: true } });
  const execution = machine.run(input, {
    overrides: { taskResourceLocalHandlers: overrides },
    context: {
      Execution: {
        Id: executionId,
        Name: executionId.split(':').pop() ?? executionId,
        Input: input,
        StartTime: new Date().toISOString(),
        // As Step Functions gives it to an execution never redriven.
        RedriveCount: 0,
      },
    },
  });
  const entered: string[] = [];
  const logging = (async () => {
    for await (const e of execution.eventLogs) {
      if (e.type === 'StateEntered') entered.push(e.state.name);
    }
  })();
  let output: unknown;
  let error: unknown;
  try {
    output = await execution.result;
  } catch (err) {
    // ExecutionError wraps the Fail state's error: name = Error, message = Cause.
    error = err instanceof Error && err.cause !== undefined ? err.cause : err;
  }
  await logging;
  return { output, error, entered };
}

describe('restart definition (aws-local-stepfunctions)', () => {
  describe('in-place restart', () => {
    it('runs every batch, finishes, releases the lock, and enters at most 10 states per batch', async () => {
      // Arrange
      steps = fakeSteps({ system: false });

      // Act
      const { output, error, entered } = await run(
        { job: 'web', batchSize: '2', yes: true },
        'arn:local:exec:inplace',
      );

      // Assert
      expect(error).toBeUndefined();
      expect(output).toMatchObject({ outcome: 'succeeded', restarted: BATCHES * SIZE });
      expect(entered.filter((s) => s === 'Restart batch')).toHaveLength(BATCHES);
      expect(entered.at(-1)).toBe(FlowStates.restartFinished);
      expect(localStores.lock.holder(lockKey)).toBeUndefined();
      const perBatch =
        entered.filter(
          (_, i) => i >= entered.indexOf(FlowStates.nextStep) && i < entered.indexOf('Finish restart'),
        ).length / BATCHES;
      expect(perBatch).toBeLessThanOrEqual(10);
      console.info(`in-place: ${entered.length} states entered, ${perBatch.toFixed(2)} per batch of ${SIZE}`);
    });
  });

  describe('system-job reschedule', () => {
    it('stops, triggers evaluations and awaits each batch, within 10 states per batch', async () => {
      // Arrange
      steps = fakeSteps({ system: true });

      // Act
      const { output, error, entered } = await run(
        { job: 'web', batchSize: '2', reschedule: true, yes: true },
        'arn:local:exec:system',
      );

      // Assert
      expect(error).toBeUndefined();
      expect(output).toMatchObject({ outcome: 'succeeded' });
      expect(entered.filter((s) => s === 'Trigger evaluations')).toHaveLength(BATCHES);
      expect(entered.filter((s) => s === 'Await batch')).toHaveLength(BATCHES);
      expect(entered).not.toContain('Restart batch');
      const perBatch =
        entered.filter(
          (_, i) => i >= entered.indexOf(FlowStates.nextStep) && i < entered.indexOf('Finish restart'),
        ).length / BATCHES;
      expect(perBatch).toBeLessThanOrEqual(10);
      console.info(
        `system reschedule: ${entered.length} states entered, ${perBatch.toFixed(2)} per batch of ${SIZE}`,
      );
    });
  });

  describe('with -wait-healthy', () => {
    beforeEach(() => healthCalls.clear());

    it.each([
      { name: 'in place', system: false, input: {} },
      { name: 'a system-job reschedule', system: true, input: { reschedule: true } },
    ])(
      "awaits each batch's health before Decide, within 10 states per batch: $name",
      async ({ system, input }) => {
        // Arrange
        steps = fakeSteps({ system });

        // Act
        const { output, error, entered } = await run(
          { job: 'web', batchSize: '2', yes: true, waitHealthy: true, ...input },
          `arn:local:exec:health-${system}`,
        );

        // Assert
        expect(error).toBeUndefined();
        expect(output).toMatchObject({ outcome: 'succeeded' });
        expect(entered.filter((s) => s === 'Await health')).toHaveLength(BATCHES);
        for (const [i, state] of entered.entries())
          if (state === 'Decide')
            expect(entered.slice(0, i).lastIndexOf('Await health')).toBeGreaterThan(
              entered.slice(0, i).lastIndexOf('Check deployments'),
            );
        // A batch: its "Check deployments" up to the next one's (the last batch: its closing "Next step?").
        const perBatch =
          entered.filter(
            (_, i) => i >= entered.indexOf('Check deployments') && i < entered.indexOf('Finish restart'),
          ).length / BATCHES;
        expect(perBatch).toBeLessThanOrEqual(10);
        console.info(
          `${system ? 'system reschedule' : 'in place'} with the health gate: ${perBatch.toFixed(2)} states per batch`,
        );
      },
    );

    it('loops "Await health" while its slices return unfinished, like "Await batch"', async () => {
      // Arrange
      steps = fakeSteps({ system: false, healthSlices: 3 });

      // Act
      const { error, entered } = await run(
        { job: 'web', batchSize: '2', yes: true, waitHealthy: true },
        'arn:local:exec:health-slices',
      );

      // Assert
      expect(error).toBeUndefined();
      expect(entered.filter((s) => s === 'Await health')).toHaveLength(3 * BATCHES);
      expect([...healthCalls.values()]).toEqual([3, 3, 3]);
    });

    it('never enters "Await health" without the gate', async () => {
      // Arrange
      steps = fakeSteps({ system: false });

      // Act
      const { entered } = await run({ job: 'web', batchSize: '2', yes: true }, 'arn:local:exec:no-health');

      // Assert
      expect(entered).toContain('Decide');
      expect(entered).not.toContain('Await health');
    });
  });

  describe('failures', () => {
    it('releases the lock and ends in StepFailed when a batch step throws', async () => {
      // Arrange
      steps = fakeSteps({ system: false, failOnBatch: 1 });

      // Act
      const { error, entered } = await run({ job: 'web', batchSize: '2', yes: true }, 'arn:local:exec:fails');

      // Assert
      expect(error).toMatchObject({ name: 'StepFailed', message: 'boom in restart batch' });
      expect(entered.slice(-3)).toEqual(['Release lock after error', FlowStates.whichError, 'StepFailed']);
      expect(localStores.lock.holder(lockKey)).toBeUndefined();
    });

    it('ends bad input in InvalidInput without taking the lock or planning', async () => {
      // Arrange
      steps = fakeSteps({ system: false });

      // Act
      const { error, entered } = await run({ job: 'web', batchSize: '1.5' }, 'arn:local:exec:bad');

      // Assert
      expect(error).toMatchObject({
        name: 'InvalidInput',
        message: 'Invalid -batch-size value "1.5": batch size must be an integer or a percentage',
      });
      expect(entered).toEqual([
        FlowStates.isContinuation,
        'Validate input',
        FlowStates.readInputError,
        'InvalidInput',
      ]);
    });

    it('fails a second run on a locked job with JobLocked and leaves the holder’s lock', async () => {
      // Arrange
      steps = fakeSteps({ system: false });
      await localStores.lock.acquire(lockKey, { owner: 'arn:local:exec:holder', ttlSeconds: 60 });
      localStores.runs.started('arn:local:exec:holder');

      // Act
      const { error } = await run({ job: 'web', yes: true }, 'arn:local:exec:second');
      localStores.runs.ended('arn:local:exec:holder');

      // Assert
      expect(error).toMatchObject({
        name: 'JobLocked',
        message:
          'Job "web" in namespace "default" is already being restarted by execution "arn:local:exec:holder"',
      });
      expect(localStores.lock.holder(lockKey)).toBe('arn:local:exec:holder');
      await localStores.lock.release(lockKey, 'arn:local:exec:holder');
    });
  });
});
