import {
  type ChildExecutionRequest,
  LocalChildExecutions,
  runLocalExecution,
  type TaskHandler,
} from '../../../lib/engines/local';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import { lambdaTask } from './helpers/asl';
import { distributedMapDefinition, sleepUnlessAborted, syncProcessor } from './helpers/distributed-map';

const CHILD_ARN = 'arn:aws:states:local:000000000000:stateMachine:OneJob';

/** The child state machine: one Lambda Task whose result is the execution's output. */
const childDefinition = {
  StartAt: 'Restart',
  States: { Restart: lambdaTask('ChildFn', { OutputPath: '$.Payload', End: true }) },
};

/** Child executions run through the engine with `child` as their only Task, recording each start. */
function childRunner(child: TaskHandler) {
  const requests: ChildExecutionRequest[] = [];
  const children = new LocalChildExecutions(async (request) => {
    requests.push(request);
    const result = await runLocalExecution(childDefinition, {
      input: request.input,
      executionName: request.name,
      stateMachineArn: request.stateMachineArn,
      taskHandlers: () => child,
      signal: request.signal,
      validate: false,
    }).result;
    const [first] = result.executions;
    if (first === undefined) throw new Error('no execution');
    return first;
  });
  return { children, requests };
}

/** A parent of one `.sync` Task (`resource`) starting the child named `$.name` with `$.input`. */
const syncParent = (resource: string, rest: Record<string, unknown> = {}) => ({
  StartAt: 'Restart job',
  States: {
    'Restart job': {
      Type: 'Task',
      Resource: resource,
      Parameters: { StateMachineArn: CHILD_ARN, 'Name.$': '$.name', 'Input.$': '$.input' },
      End: true,
      ...rest,
    },
  },
});

const named = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('states:startExecution.sync in the local engine', () => {
  it('runs the child and returns DescribeExecution with Output as JSON for .sync:2', async () => {
    // Arrange
    const { children, requests } = childRunner(async (payload) => ({ restarted: payload }));

    // Act
    const result = await runLocalExecution(syncParent('arn:aws:states:::states:startExecution.sync:2'), {
      input: { name: 'fleet-1-web', input: { job: 'web' } },
      taskHandlers: () => undefined,
      childExecutions: children,
    }).result;

    // Assert
    expect(requests.map((r) => [r.name, r.executionArn, r.input])).toEqual([
      ['fleet-1-web', 'arn:aws:states:local:000000000000:execution:OneJob:fleet-1-web', { job: 'web' }],
    ]);
    expect(result.output).toEqual({
      ExecutionArn: 'arn:aws:states:local:000000000000:execution:OneJob:fleet-1-web',
      Input: { job: 'web' },
      InputDetails: { Included: true },
      Name: 'fleet-1-web',
      Output: { restarted: { job: 'web' } },
      OutputDetails: { Included: true },
      RedriveCount: 0,
      StartDate: expect.any(Number),
      StateMachineArn: CHILD_ARN,
      Status: 'SUCCEEDED',
      StopDate: expect.any(Number),
    });
  });

  it('returns Input and Output as JSON strings for .sync', async () => {
    // Arrange
    const { children } = childRunner(async () => ({ ok: true }));

    // Act
    const result = await runLocalExecution(syncParent('arn:aws:states:::states:startExecution.sync'), {
      input: { name: 'one', input: { job: 'web' } },
      taskHandlers: () => undefined,
      childExecutions: children,
    }).result;

    // Assert
    expect(result.output).toMatchObject({ Input: '{"job":"web"}', Output: '{"ok":true}' });
  });

  it("fails the Task with States.TaskFailed and DescribeExecution's JSON, with the child's error, as the cause", async () => {
    // Arrange
    const { children } = childRunner(async () => {
      throw named('JobLocked', 'job "web" is locked by run r-9');
    });

    // Act
    const result = await runLocalExecution(syncParent('arn:aws:states:::states:startExecution.sync:2'), {
      input: { name: 'one', input: { job: 'web' } },
      taskHandlers: () => undefined,
      childExecutions: children,
    }).result;

    // Assert
    expect(result.status).toBe('FAILED');
    expect(result.error).toBe('States.TaskFailed');
    const cause = JSON.parse(result.cause ?? '') as Record<string, unknown>;
    expect(cause).toMatchObject({
      ExecutionArn: 'arn:aws:states:local:000000000000:execution:OneJob:one',
      Status: 'FAILED',
      Error: 'JobLocked',
      Cause: expect.stringContaining('job \\"web\\" is locked by run r-9'),
    });
    expect(cause).not.toHaveProperty('Output');
  });

  it('attaches a second start of the same name and input to the running child, which runs once', async () => {
    // Arrange: two branches start the same child at the same time.
    const { children, requests } = childRunner(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { ok: true };
    });
    const start = syncParent('arn:aws:states:::states:startExecution.sync:2', {
      ResultSelector: { 'arn.$': '$.ExecutionArn' },
    });
    const again = { StartAt: 'Again', States: { Again: start.States['Restart job'] } };
    const definition = {
      StartAt: 'Both',
      States: { Both: { Type: 'Parallel', Branches: [start, again], End: true } },
    };

    // Act
    const result = await runLocalExecution(definition, {
      input: { name: 'fleet-1-web', input: { job: 'web' } },
      taskHandlers: () => undefined,
      childExecutions: children,
    }).result;

    // Assert
    expect(requests).toHaveLength(1);
    expect(result.output).toEqual([
      { arn: 'arn:aws:states:local:000000000000:execution:OneJob:fleet-1-web' },
      { arn: 'arn:aws:states:local:000000000000:execution:OneJob:fleet-1-web' },
    ]);
  });

  it('refuses a start of a name whose child already ended, as StartExecution does, without running it again', async () => {
    // Arrange
    const { children, requests } = childRunner(async () => ({ ok: true }));
    const definition = syncParent('arn:aws:states:::states:startExecution.sync:2');
    const input = { name: 'fleet-1-web', input: { job: 'web' } };
    await runLocalExecution(definition, { input, taskHandlers: () => undefined, childExecutions: children })
      .result;

    // Act
    const again = await runLocalExecution(definition, {
      input,
      taskHandlers: () => undefined,
      childExecutions: children,
    }).result;

    // Assert
    expect(requests).toHaveLength(1);
    expect(again.error).toBe('StepFunctions.ExecutionAlreadyExistsException');
    expect(again.cause).toBe(
      "Execution Already Exists: 'arn:aws:states:local:000000000000:execution:OneJob:fleet-1-web'",
    );
  });

  it('stops the child when the parent is aborted, as Step Functions calls StopExecution', async () => {
    // Arrange
    let childSignal: AbortSignal | undefined;
    const { children } = childRunner(async (_payload, { signal }) => {
      childSignal = signal;
      await sleepUnlessAborted(60_000, signal);
      return {};
    });
    const parent = new AbortController();
    const run = runLocalExecution(syncParent('arn:aws:states:::states:startExecution.sync:2'), {
      input: { name: 'one', input: {} },
      taskHandlers: () => undefined,
      childExecutions: children,
      signal: parent.signal,
    });
    while (childSignal === undefined) await new Promise((resolve) => setTimeout(resolve, 5));

    // Act
    parent.abort();
    const result = await run.result;

    // Assert
    expect(result.status).toBe('ABORTED');
    expect(childSignal.aborted).toBe(true);
  });

  it("runs the fleet's item processor: a locked child is skipped, a failed one fails its item", async () => {
    // Arrange
    const store = new MemoryPlanStore();
    const item = (job: string) => ({ input: { job, namespace: 'default' }, executionName: `fleet-1-${job}` });
    await store.put('items.json', [item('web'), item('locked'), item('broken')]);
    const { children } = childRunner(async (payload) => {
      const { job } = payload as { job: string };
      if (job === 'locked') throw named('JobLocked', 'held by r-2');
      if (job === 'broken') throw named('RestartFailed', 'batch 1 failed');
      return { restarted: job };
    });

    // Act
    const result = await runLocalExecution(distributedMapDefinition(syncProcessor(CHILD_ARN)), {
      input: { itemsKey: 'items.json', prefix: 'results', max: 1, tolerated: 5, options: { batchSize: 2 } },
      taskHandlers: () => undefined,
      childExecutions: children,
      objectStore: store,
    }).result;

    // Assert
    const details = (result.output as { mapResult: { ResultWriterDetails: { Key: string } } }).mapResult
      .ResultWriterDetails;
    const manifest = (await store.get(details.Key)) as { ResultFiles: Record<string, { Key: string }[]> };
    const read = async (status: string) =>
      (await store.get(manifest.ResultFiles[status]?.[0]?.Key ?? '')) as Record<string, string>[];
    const succeeded = await read('SUCCEEDED');
    expect(succeeded.map((r) => JSON.parse(r['Output'] ?? 'null') as unknown)).toEqual([
      {
        executionArn: 'arn:aws:states:local:000000000000:execution:OneJob:fleet-1-web',
        output: { restarted: 'web' },
      },
      expect.objectContaining({ child: expect.objectContaining({ Error: 'JobLocked' }) }),
    ]);
    expect((await read('FAILED')).map((r) => r['Error'])).toEqual(['JobFailed']);
  });

  it('answers when the started execution ends, not its continuation, as .sync waits for that execution only', async () => {
    // Arrange: a child that continues as new once, its continuation slower.
    const continuing = {
      StartAt: 'Continue?',
      States: {
        'Continue?': {
          Type: 'Choice',
          Choices: [{ Variable: '$.continued', IsPresent: true, Next: 'Slow' }],
          Default: 'Continue as new',
        },
        'Continue as new': {
          Type: 'Task',
          Resource: 'arn:aws:states:::states:startExecution',
          Parameters: { StateMachineArn: CHILD_ARN, Input: { continued: true } },
          ResultSelector: { 'ExecutionArn.$': '$.ExecutionArn' },
          ResultPath: '$.continuedAs',
          OutputPath: '$.continuedAs',
          End: true,
        },
        Slow: { Type: 'Wait', Seconds: 1, End: true },
      },
    };
    let continuationEnded = false;
    const children = new LocalChildExecutions(
      (request) =>
        new Promise((resolve) => {
          let first = true;
          const run = runLocalExecution(continuing, {
            input: request.input,
            executionName: request.name,
            stateMachineArn: request.stateMachineArn,
            taskHandlers: () => undefined,
            validate: false,
            onExecutionEnded: (execution) => {
              if (first) resolve(execution);
              first = false;
            },
          });
          void run.result.then(() => {
            continuationEnded = true;
          });
        }),
    );

    // Act
    const result = await runLocalExecution(syncParent('arn:aws:states:::states:startExecution.sync:2'), {
      input: { name: 'long-job', input: {} },
      taskHandlers: () => undefined,
      childExecutions: children,
    }).result;

    // Assert: the parent has the first execution's end (where its continuation went), while the
    // continuation still runs.
    expect(result.output).toMatchObject({
      Status: 'SUCCEEDED',
      Output: { ExecutionArn: expect.stringContaining(':execution:OneJob:') },
    });
    expect(continuationEnded).toBe(false);
  });
});
