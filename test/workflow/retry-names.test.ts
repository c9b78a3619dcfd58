// Scenario (#28 item 6): each error name the definition promises to retry, raised once by a Task
// of the synthesized ASL run in aws-local-stepfunctions (the local engine's runtime), is retried
// and the state then succeeds; ASL matches names exactly, so a name missing from a Retry would
// end the run. The Lambda steps get Lambda's own ends of a function (its timeout, an exited
// runtime); continue-as-new gets both spellings of the execution limit and the integration's
// generic service and client errors, and takes `ExecutionAlreadyExists` in either spelling as the
// hand-over it is.
import { StateMachine } from 'aws-local-stepfunctions';
import { TaskFailure } from '../../lib/engines/local/private/task-failures';
import { unwrapStepEvent } from '../../lib/workflow/redrive';
import { FlowStates, TaskStates } from '../../lib/workflow/state-names';
import { cachedTestStackAsl } from '../constructs/helpers/cached-test-stack';

type Asl = { StartAt: string; States: Record<string, Record<string, unknown>> };
let asl: Asl;
beforeAll(async () => {
  asl = (await cachedTestStackAsl()) as Asl;
});

const SUCCESSOR = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestartTest-Restart:next';

/**
 * Runs the definition from `startAt`; `failing` raises `error` on its first attempt only, every
 * other Task hands its input back (the start task: the successor's ARN).
 */
async function runOnce(startAt: string, failing: string, error: string, input: object) {
  const attempts: string[] = [];
  const handler = (state: string) => async (event: unknown) => {
    attempts.push(state);
    if (state === failing && attempts.filter((s) => s === state).length === 1)
      throw TaskFailure.fromLambda(Object.assign(new Error(`${error} once`), { name: error }));
    // A Lambda step's handler gets the state beside the redrive count, and returns the state.
    return state === TaskStates.continueAsNew ? { ExecutionArn: SUCCESSOR } : unwrapStepEvent(event);
  };
  const tasks = Object.entries(asl.States).filter(([, s]) => s['Type'] === 'Task');
  const machine = new StateMachine({ ...asl, StartAt: startAt } as never, {
    validationOptions: { noValidate: true },
  });
  const execution = machine.run(input as never, {
    context: {
      Execution: {
        Id: 'arn:aws:states:us-east-1:123456789012:execution:NomadRestartTest-Restart:run',
        RedriveCount: 0,
      },
    },
    overrides: {
      taskResourceLocalHandlers: Object.fromEntries(tasks.map(([name]) => [name, handler(name)])) as never,
      retryIntervalOverrides: Object.fromEntries(tasks.map(([name]) => [name, 0])),
    },
  });
  const entered: string[] = [];
  const log = (async () => {
    for await (const e of execution.eventLogs) if (e.type === 'StateEntered') entered.push(e.state.name);
  })();
  const output = await execution.result.catch((err: unknown) => ({ failed: err }));
  await log;
  return { output, attempts, entered };
}

describe('retries that match', () => {
  it.each(['Sandbox.Timedout', 'Runtime.ExitError', 'Lambda.Unknown'])(
    'retries %s on an idempotent Lambda step and goes on',
    async (error) => {
      // Act
      const { attempts, entered } = await runOnce(TaskStates.releaseLock, TaskStates.releaseLock, error, {
        summary: { outcome: 'succeeded' },
      });

      // Assert
      expect(attempts.filter((s) => s === TaskStates.releaseLock)).toHaveLength(2);
      expect(entered.at(-1)).toBe(FlowStates.restartFinished);
    },
  );

  it.each([
    'StepFunctions.ExecutionLimitExceeded',
    'StepFunctions.ExecutionLimitExceededException',
    'StepFunctions.ThrottlingException',
    'StepFunctions.KmsThrottlingException',
    'StepFunctions.AWSStepFunctionsException',
    'StepFunctions.SdkClientException',
  ])('retries %s when continuing as new, then hands over', async (error) => {
    // Act
    const { output, attempts, entered } = await runOnce(
      TaskStates.continueAsNew,
      TaskStates.continueAsNew,
      error,
      {
        run: { runId: 'arn:run', executionNumber: 1, continuationPrefix: 'web-run-0123456789ab' },
      },
    );

    // Assert
    expect(attempts.filter((s) => s === TaskStates.continueAsNew)).toHaveLength(2);
    expect(entered.at(-1)).toBe(FlowStates.continued);
    expect(output).toEqual({ executionArn: SUCCESSOR });
  });

  it.each(['StepFunctions.ExecutionAlreadyExists', 'StepFunctions.ExecutionAlreadyExistsException'])(
    'takes %s as the hand-over it is, without a retry',
    async (error) => {
      // Act
      const { attempts, entered } = await runOnce(TaskStates.continueAsNew, TaskStates.continueAsNew, error, {
        run: { runId: 'arn:run', executionNumber: 1, continuationPrefix: 'web-run-0123456789ab' },
      });

      // Assert
      expect(attempts).toEqual([TaskStates.continueAsNew]);
      expect(entered).toEqual([TaskStates.continueAsNew, FlowStates.continued]);
    },
  );
});
