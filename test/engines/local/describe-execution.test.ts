/**
 * Scenario: `arn:aws:states:::aws-sdk:sfn:describeExecution` in the local engine, answered from
 * the child executions a `.sync` Task started and the executions they continued in, as the SDK
 * integration answers on AWS: a continued execution RUNNING until it ends, `Output` a string, an
 * unknown ARN `Sfn.ExecutionDoesNotExistException`.
 */
import { LocalChildExecutions, runLocalExecution, type TaskHandler } from '../../../lib/engines/local';
import { lambdaTask } from './helpers/asl';

const CHILD_ARN = 'arn:aws:states:local:000000000000:stateMachine:OneJob';

/**
 * A child that continues as new once, as the one-job workflow does (its first execution's output
 * is `{ executionArn }`), and whose continued execution runs the `Work` handler.
 */
const continuingChild = {
  StartAt: 'Continued?',
  States: {
    'Continued?': {
      Type: 'Choice',
      Choices: [{ Variable: '$.continued', IsPresent: true, Next: 'Work' }],
      Default: 'Continue as new',
    },
    'Continue as new': {
      Type: 'Task',
      Resource: 'arn:aws:states:::states:startExecution',
      Parameters: { StateMachineArn: CHILD_ARN, Name: 'job-2', Input: { continued: true } },
      ResultSelector: { 'executionArn.$': '$.ExecutionArn' },
      End: true,
    },
    Work: lambdaTask('WorkFn', { OutputPath: '$.Payload', End: true }),
  },
};

/** The children, each run through the engine; the continued execution's work waits for `finish`. */
function children(work: TaskHandler) {
  let chainEnded: Promise<unknown> = Promise.resolve();
  const registry = new LocalChildExecutions(
    (request) =>
      new Promise((resolve) => {
        let first = true;
        const run = runLocalExecution(continuingChild, {
          input: request.input,
          executionName: request.name,
          stateMachineArn: request.stateMachineArn,
          taskHandlers: () => work,
          validate: false,
          onExecutionEnded: (execution) => {
            if (first) resolve(execution);
            else request.onContinuedExecutionEnded(execution);
            first = false;
          },
        });
        chainEnded = run.result;
      }),
  );
  return { registry, chainEnded: () => chainEnded };
}

describe('aws-sdk:sfn:describeExecution in the local engine', () => {
  it('describes a continued execution as RUNNING until it ends, then with its Output as a string', async () => {
    // Arrange
    let finish: (value: unknown) => void = () => {};
    let working: () => void = () => {};
    const workStarted = new Promise<void>((resolve) => {
      working = resolve;
    });
    const { registry, chainEnded } = children(
      () =>
        new Promise((resolve) => {
          finish = resolve;
          working();
        }),
    );
    const first = await registry.startSync(
      { StateMachineArn: CHILD_ARN, Name: 'job', Input: {} },
      2,
      new AbortController().signal,
    );
    const successor = String((first['Output'] as { executionArn: string }).executionArn);

    await workStarted;

    // Act
    const running = registry.describe({ ExecutionArn: successor });
    finish({ outcome: 'succeeded', note: 'a "quoted" word' });
    await chainEnded();
    const ended = registry.describe({ ExecutionArn: successor });
    const child = registry.describe({ ExecutionArn: String(first['ExecutionArn']) });

    // Assert
    expect(successor).toBe('arn:aws:states:local:000000000000:execution:OneJob:job-2');
    expect(running).toMatchObject({ ExecutionArn: successor, Name: 'job-2', Status: 'RUNNING' });
    expect(running).not.toHaveProperty('Output');
    expect(ended).toMatchObject({ Status: 'SUCCEEDED', StateMachineArn: CHILD_ARN });
    expect(JSON.parse(String(ended['Output']))).toEqual({ outcome: 'succeeded', note: 'a "quoted" word' });
    expect(child).toMatchObject({ Status: 'SUCCEEDED', Input: '{}' });
    expect(JSON.parse(String(child['Output']))).toEqual({ executionArn: successor });
  });

  it('describes a failed continued execution with its own Error and Cause', async () => {
    // Arrange
    const { registry, chainEnded } = children(async () => {
      throw Object.assign(new Error('restart refused'), { name: 'RestartFailed' });
    });
    const first = await registry.startSync(
      { StateMachineArn: CHILD_ARN, Name: 'job', Input: {} },
      2,
      new AbortController().signal,
    );
    await chainEnded();

    // Act
    const ended = registry.describe({
      ExecutionArn: String((first['Output'] as { executionArn: string }).executionArn),
    });

    // Assert
    expect(ended).toMatchObject({ Status: 'FAILED', Error: 'RestartFailed' });
    expect(String(ended['Cause'])).toContain('restart refused');
  });

  it('refuses an execution it never started as the SDK integration does', () => {
    // Arrange
    const { registry } = children(async () => ({}));
    const unknown = 'arn:aws:states:local:000000000000:execution:OneJob:never-started';

    // Act
    const describe = () => registry.describe({ ExecutionArn: unknown });

    // Assert
    expect(describe).toThrow(
      expect.objectContaining({
        name: 'Sfn.ExecutionDoesNotExistException',
        message: `Execution Does Not Exist: '${unknown}'`,
      }),
    );
  });

  it('answers a Task state of the definition through the children', async () => {
    // Arrange: a parent starting the child with .sync:2, then describing its successor.
    const { registry, chainEnded } = children(async () => ({ outcome: 'succeeded' }));
    const parent = {
      StartAt: 'Restart job',
      States: {
        'Restart job': {
          Type: 'Task',
          Resource: 'arn:aws:states:::states:startExecution.sync:2',
          Parameters: { StateMachineArn: CHILD_ARN, Name: 'job', Input: {} },
          ResultSelector: { 'executionArn.$': '$.Output.executionArn' },
          Next: 'Read continued job',
        },
        'Read continued job': {
          Type: 'Task',
          Resource: 'arn:aws:states:::aws-sdk:sfn:describeExecution',
          Parameters: { 'ExecutionArn.$': '$.executionArn' },
          ResultSelector: { 'Status.$': '$.Status' },
          End: true,
        },
      },
    };

    // Act
    const result = await runLocalExecution(parent, {
      input: {},
      taskHandlers: () => undefined,
      childExecutions: registry,
    }).result;
    await chainEnded();

    // Assert: the successor may have ended already; it is known either way.
    expect(result.status).toBe('SUCCEEDED');
    expect(['RUNNING', 'SUCCEEDED']).toContain((result.output as { Status: string }).Status);
  });
});
