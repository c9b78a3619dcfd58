import {
  InvalidDefinitionError,
  runLocalExecution,
  TaskBindingError,
  type TaskHandler,
  type TaskStateInfo,
  type TaskTokenAnswerer,
  UnsupportedStateError,
  validateDefinition,
} from '../../../lib/engines/local';
import { fnArn, lambdaTask, namedError } from './helpers/asl';

/** Binds every Task to the handler named by its function logical id. */
const byFunction =
  (handlers: Record<string, TaskHandler>) =>
  (state: TaskStateInfo): TaskHandler | undefined =>
    state.functionLogicalId === undefined ? undefined : handlers[state.functionLogicalId];

describe('runLocalExecution', () => {
  describe('lambda:invoke tasks', () => {
    it('passes the resolved Payload to the handler and returns the response shaped as AWS does', async () => {
      // Arrange
      const definition = {
        StartAt: 'Plan',
        States: { Plan: lambdaTask('PlanFn', { ResultPath: '$.raw', End: true }) },
      };
      const seen: unknown[] = [];
      const handler: TaskHandler = async (payload) => {
        seen.push(payload);
        return { batches: 2, at: new Date(0) };
      };

      // Act
      const result = await runLocalExecution(definition, {
        input: { job: 'example' },
        taskHandlers: () => handler,
      }).result;

      // Assert
      expect(seen).toEqual([{ job: 'example' }]);
      expect(result.status).toBe('SUCCEEDED');
      expect(result.output).toEqual({
        job: 'example',
        raw: {
          ExecutedVersion: '$LATEST',
          Payload: { batches: 2, at: '1970-01-01T00:00:00.000Z' },
          SdkHttpMetadata: {
            HttpHeaders: { 'Content-Type': 'application/json', 'X-Amz-Executed-Version': '$LATEST' },
            HttpStatusCode: 200,
          },
          SdkResponseMetadata: { RequestId: expect.any(String) },
          StatusCode: 200,
        },
      });
    });

    it('binds each task to a handler by its function logical id', async () => {
      // Arrange
      const definition = {
        StartAt: 'Plan',
        States: {
          Plan: lambdaTask('PlanFn', { OutputPath: '$.Payload', Next: 'Restart' }),
          Restart: lambdaTask('RestartFn', { OutputPath: '$.Payload', End: true }),
        },
      };
      const asked: TaskStateInfo[] = [];

      // Act
      const result = await runLocalExecution(definition, {
        input: { steps: [] },
        taskHandlers: (state) => {
          asked.push(state);
          return byFunction({
            PlanFn: async (p) => ({ steps: [...(p as { steps: string[] }).steps, 'plan'] }),
            RestartFn: async (p) => ({ steps: [...(p as { steps: string[] }).steps, 'restart'] }),
          })(state);
        },
      }).result;

      // Assert
      expect(asked).toEqual([
        {
          stateName: 'Plan',
          resource: 'arn:aws:states:::lambda:invoke',
          integration: 'lambda-invoke',
          waitForTaskToken: false,
          functionLogicalId: 'PlanFn',
        },
        {
          stateName: 'Restart',
          resource: 'arn:aws:states:::lambda:invoke',
          integration: 'lambda-invoke',
          waitForTaskToken: false,
          functionLogicalId: 'RestartFn',
        },
      ]);
      expect(result.output).toEqual({ steps: ['plan', 'restart'] });
    });

    it('gives a Lambda-ARN resource the state input and returns the raw result', async () => {
      // Arrange
      const definition = {
        StartAt: 'Echo',
        States: { Echo: { Type: 'Task', Resource: fnArn('EchoFn'), End: true } },
      };

      // Act
      const result = await runLocalExecution(definition, {
        input: { a: 1 },
        taskHandlers: byFunction({ EchoFn: async (p) => ({ echoed: p }) }),
      }).result;

      // Assert
      expect(result.output).toEqual({ echoed: { a: 1 } });
    });
  });

  describe('errors', () => {
    it('retries on a custom error name', async () => {
      // Arrange
      const definition = {
        StartAt: 'Plan',
        States: {
          Plan: lambdaTask('PlanFn', {
            OutputPath: '$.Payload',
            Retry: [{ ErrorEquals: ['Nomad.TransientError'], IntervalSeconds: 5, MaxAttempts: 2 }],
            End: true,
          }),
        },
      };
      let calls = 0;
      const plan: TaskHandler = async () => {
        calls += 1;
        if (calls < 3) throw namedError('Nomad.TransientError', `attempt ${calls}`);
        return { ok: true };
      };

      // Act
      const result = await runLocalExecution(definition, {
        input: {},
        taskHandlers: () => plan,
        retryIntervalOverrides: { Plan: 0 },
      }).result;

      // Assert
      expect(result).toMatchObject({ status: 'SUCCEEDED', output: { ok: true } });
      expect(calls).toBe(3);
      expect(result.stats.retries).toBe(2);
    });

    it.each([
      { thrown: 'JobNotFound', expectedNext: 'Not found' },
      { thrown: 'TypeError', expectedNext: 'Anything else' },
    ])('routes a $thrown error to "$expectedNext" through Catch', async ({ thrown, expectedNext }) => {
      // Arrange
      const definition = {
        StartAt: 'Plan',
        States: {
          Plan: lambdaTask('PlanFn', {
            Catch: [
              { ErrorEquals: ['JobNotFound'], ResultPath: '$.error', Next: 'Not found' },
              { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Anything else' },
            ],
            End: true,
          }),
          'Not found': { Type: 'Pass', Result: 'not found', ResultPath: '$.route', End: true },
          'Anything else': { Type: 'Pass', Result: 'anything else', ResultPath: '$.route', End: true },
        },
      };
      const plan: TaskHandler = async () => {
        throw namedError(thrown, 'job "example" not found', new Error('inner detail'));
      };

      // Act
      const result = await runLocalExecution(definition, {
        input: { job: 'example' },
        taskHandlers: () => plan,
      }).result;

      // Assert
      expect(result.status).toBe('SUCCEEDED');
      const output = result.output as { error: { Error: string; Cause: string }; route: string };
      expect(output.route).toBe(expectedNext === 'Not found' ? 'not found' : 'anything else');
      expect(output.error.Error).toBe(thrown);
      // As on AWS, the cause is Lambda's JSON: the error's type and message, never its inner cause.
      expect(JSON.parse(output.error.Cause)).toMatchObject({
        errorType: thrown,
        errorMessage: 'job "example" not found',
        trace: expect.arrayContaining([expect.stringContaining('job "example" not found')]),
      });
      expect(result.stats.stateCounts[expectedNext]).toBe(1);
    });

    it("fails with a Fail state's error and cause", async () => {
      // Arrange
      const definition = {
        StartAt: 'Canceled',
        States: { Canceled: { Type: 'Fail', Error: 'Canceled', Cause: 'Job restart canceled' } },
      };

      // Act
      const result = await runLocalExecution(definition, { input: {}, taskHandlers: () => undefined }).result;

      // Assert
      expect(result).toMatchObject({ status: 'FAILED', error: 'Canceled', cause: 'Job restart canceled' });
      expect(result.output).toBeUndefined();
    });

    it("fails with an uncaught function error's name and Lambda's JSON cause, not its inner cause", async () => {
      // Arrange
      const definition = { StartAt: 'Plan', States: { Plan: lambdaTask('PlanFn', { End: true }) } };
      const plan: TaskHandler = async () => {
        throw namedError(
          'UnexpectedResponseError',
          'Unexpected response code: 500 (boom)',
          new Error('socket'),
        );
      };

      // Act
      const result = await runLocalExecution(definition, { input: {}, taskHandlers: () => plan }).result;

      // Assert
      expect(result).toMatchObject({ status: 'FAILED', error: 'UnexpectedResponseError' });
      expect(JSON.parse(result.cause ?? '')).toMatchObject({
        errorType: 'UnexpectedResponseError',
        errorMessage: 'Unexpected response code: 500 (boom)',
      });
      expect(result.cause).not.toContain('socket');
    });
  });

  describe('waitForTaskToken tasks', () => {
    const askDefinition = (timeout?: number) => ({
      StartAt: 'Ask',
      States: {
        Ask: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
          Parameters: {
            FunctionName: fnArn('AskFn'),
            Payload: {
              'question.$': '$.question',
              'token.$': '$$.Task.Token',
              'execution.$': '$$.Execution.Id',
            },
          },
          ResultPath: '$.answer',
          ...(timeout === undefined ? {} : { TimeoutSeconds: timeout }),
          Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Unanswered' }],
          End: true,
        },
        Unanswered: { Type: 'Pass', End: true },
      },
    });
    /** The output of the ask state answered by `answerTaskToken` alone (no Lambda handler). */
    const askedOutput = async (answerTaskToken: TaskTokenAnswerer, timeout?: number) => {
      const run = runLocalExecution(askDefinition(timeout), {
        input: { question: 'proceed?' },
        taskHandlers: () => undefined,
        answerTaskToken,
      });
      return (await run.result).output;
    };

    it('passes the token where the ASL puts $$.Task.Token and resumes with the answer', async () => {
      // Arrange
      const handlerCalls: { payload: unknown; token: string | undefined }[] = [];
      const answererCalls: { question: unknown; token: string }[] = [];

      // Act
      const result = await runLocalExecution(askDefinition(), {
        input: { question: 'proceed?' },
        executionName: 'run-1',
        taskHandlers: byFunction({
          AskFn: async (payload, ctx) => {
            handlerCalls.push({ payload, token: ctx.taskToken });
            return 'ignored, as on AWS';
          },
        }),
        answerTaskToken: async (question, token) => {
          answererCalls.push({ question, token });
          return { answer: 'yes' };
        },
      }).result;

      // Assert
      const [call] = answererCalls;
      expect(call?.token).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(call?.question).toEqual({
        question: 'proceed?',
        token: call?.token,
        execution: 'arn:aws:states:local:000000000000:execution:local:run-1',
      });
      expect(handlerCalls).toEqual([{ payload: call?.question, token: call?.token }]);
      expect(result).toMatchObject({
        status: 'SUCCEEDED',
        output: { question: 'proceed?', answer: { answer: 'yes' } },
      });
    });

    it("fails the state with the answerer's error, as SendTaskFailure does", async () => {
      // Arrange
      const answerTaskToken = async () => {
        throw namedError('Canceled', 'Job restart canceled');
      };

      // Act
      const output = await askedOutput(answerTaskToken);

      // Assert
      expect(output).toEqual({
        question: 'proceed?',
        error: { Error: 'Canceled', Cause: 'Job restart canceled' },
      });
    });

    it("aborts the answerer's signal and times the state out after its TimeoutSeconds", async () => {
      // Arrange
      let answererSawAbort = false;
      const answerTaskToken = (_q: unknown, _t: string, ctx: { signal: AbortSignal }) =>
        new Promise<unknown>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            answererSawAbort = true;
            reject(new Error('no answer'));
          });
        });

      // Act
      const output = await askedOutput(answerTaskToken, 1);

      // Assert
      expect(output).toEqual({
        question: 'proceed?',
        error: { Error: 'States.Timeout', Cause: 'States.Timeout' },
      });
      expect(answererSawAbort).toBe(true);
    });
  });

  describe('Wait states and abort', () => {
    const waitDefinition = {
      StartAt: 'Wait between batches',
      States: {
        'Wait between batches': { Type: 'Wait', SecondsPath: '$.waitSeconds', Next: 'After' },
        After: { Type: 'Pass', Result: 'waited', ResultPath: '$.after', End: true },
      },
    };

    it('waits as long as waitTimeOverrides says instead of SecondsPath', async () => {
      // Act
      const result = await runLocalExecution(waitDefinition, {
        input: { waitSeconds: 3600 },
        taskHandlers: () => undefined,
        waitTimeOverrides: { 'Wait between batches': 0 },
      }).result;

      // Assert
      expect(result).toMatchObject({ status: 'SUCCEEDED', output: { waitSeconds: 3600, after: 'waited' } });
    });

    it('stops a pending wait as soon as abort() is called', async () => {
      // Arrange
      const entered: string[] = [];
      const run = runLocalExecution(waitDefinition, {
        input: { waitSeconds: 3600 },
        taskHandlers: () => undefined,
        onStateEntered: (name) => {
          entered.push(name);
          if (name === 'Wait between batches') run.abort();
        },
      });

      // Act
      const result = await run.result;

      // Assert
      expect(result.status).toBe('ABORTED');
      expect(entered).toEqual(['Wait between batches']);
      expect(result.output).toBeUndefined();
    });

    it('aborts through options.signal and aborts the running handler', async () => {
      // Arrange
      const controller = new AbortController();
      let handlerSawAbort = false;
      const definition = {
        StartAt: 'Await',
        States: { Await: lambdaTask('AwaitFn', { Next: 'After' }), After: { Type: 'Succeed' } },
      };
      const awaitBatch: TaskHandler = (_payload, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            handlerSawAbort = true;
            resolve({});
          });
          controller.abort();
        });

      // Act
      const result = await runLocalExecution(definition, {
        input: {},
        taskHandlers: () => awaitBatch,
        signal: controller.signal,
      }).result;

      // Assert
      expect(result.status).toBe('ABORTED');
      expect(handlerSawAbort).toBe(true);
      expect(result.stats.stateCounts['After']).toBeUndefined();
    });
  });

  describe('continue-as-new', () => {
    const chainDefinition = (stateMachineArn: string) => ({
      StartAt: 'Restart batch',
      States: {
        'Restart batch': lambdaTask('RestartFn', { OutputPath: '$.Payload', Next: 'More batches?' }),
        'More batches?': {
          Type: 'Choice',
          Choices: [{ Variable: '$.cursor', NumericGreaterThanEquals: 3, Next: 'Done' }],
          Default: 'Continue as new',
        },
        'Continue as new': {
          Type: 'Task',
          Resource: 'arn:aws:states:::states:startExecution',
          Parameters: {
            StateMachineArn: stateMachineArn,
            Input: {
              'cursor.$': '$.cursor',
              'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$': '$$.Execution.Id',
            },
          },
          Next: 'Handed over',
        },
        'Handed over': { Type: 'Succeed' },
        Done: { Type: 'Pass', Result: 'all batches', ResultPath: '$.summary', End: true },
      },
    });
    const restart: TaskHandler = async (payload) => ({ cursor: (payload as { cursor: number }).cursor + 1 });

    it('runs the next execution with the given input and follows the chain to its end', async () => {
      // Arrange
      const arn = 'arn:aws:states:local:000000000000:stateMachine:NomadRestart';
      const requests: unknown[] = [];

      // Act
      const result = await runLocalExecution(chainDefinition(arn), {
        input: { cursor: 0 },
        stateMachineArn: arn,
        executionName: 'first',
        taskHandlers: () => restart,
        startNextExecution: (request) => {
          requests.push(request);
          return true;
        },
      }).result;

      // Assert
      expect(result).toMatchObject({ status: 'SUCCEEDED', output: { cursor: 3, summary: 'all batches' } });
      expect(result.executions.map((e) => e.status)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
      expect(result.executions[0]?.executionArn).toBe(
        'arn:aws:states:local:000000000000:execution:NomadRestart:first',
      );
      expect(requests[0]).toEqual({
        stateMachineArn: arn,
        name: result.executions[1]?.name,
        input: { cursor: 1, AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID: result.executions[0]?.executionArn },
        previousExecutionArn: result.executions[0]?.executionArn,
        executionNumber: 2,
      });
      expect(result.stats.executions).toBe(3);
      expect(result.stats.stateCounts['Restart batch']).toBe(3);
      expect(result.stats.stateCounts['Continue as new']).toBe(2);
    });

    it('stops the chain when startNextExecution says no', async () => {
      // Act
      const result = await runLocalExecution(
        chainDefinition('arn:aws:states:local:000000000000:stateMachine:local'),
        {
          input: { cursor: 0 },
          taskHandlers: () => restart,
          startNextExecution: () => false,
        },
      ).result;

      // Assert
      expect(result).toMatchObject({ status: 'SUCCEEDED', output: { ExecutionArn: expect.any(String) } });
      expect(result.executions).toHaveLength(1);
    });

    it('fails with States.Runtime when asked to start another state machine', async () => {
      // Act
      const result = await runLocalExecution(
        chainDefinition('arn:aws:states:local:000000000000:stateMachine:Other'),
        {
          input: { cursor: 0 },
          taskHandlers: () => restart,
        },
      ).result;

      // Assert
      expect(result).toMatchObject({
        status: 'FAILED',
        error: 'States.Runtime',
        cause:
          'states:startExecution of "arn:aws:states:local:000000000000:stateMachine:Other": the local engine only continues "arn:aws:states:local:000000000000:stateMachine:local" as new',
      });
    });

    it('fails with States.Runtime past maxExecutions', async () => {
      // Act
      const result = await runLocalExecution(
        chainDefinition('arn:aws:states:local:000000000000:stateMachine:local'),
        {
          input: { cursor: 0 },
          taskHandlers: () => restart,
          maxExecutions: 2,
        },
      ).result;

      // Assert
      expect(result).toMatchObject({
        status: 'FAILED',
        error: 'States.Runtime',
        cause: 'continue-as-new past maxExecutions (2)',
      });
      expect(result.executions).toHaveLength(2);
    });
  });

  describe('stats', () => {
    it('counts entered states, transitions, per-state counts, payload bytes and history events', async () => {
      // Arrange
      const definition = {
        StartAt: 'Prepare',
        States: {
          Prepare: { Type: 'Pass', Next: 'Plan' },
          Plan: lambdaTask('PlanFn', {
            OutputPath: '$.Payload',
            Retry: [{ ErrorEquals: ['States.TaskFailed'], MaxAttempts: 1 }],
            Next: 'Anything?',
          }),
          'Anything?': {
            Type: 'Choice',
            Choices: [{ Variable: '$.n', NumericEquals: 0, Next: 'Done' }],
            Default: 'Done',
          },
          Done: { Type: 'Succeed' },
        },
      };
      let calls = 0;
      const plan: TaskHandler = async () => {
        calls += 1;
        if (calls === 1) throw namedError('Nomad.TransientError', 'try again');
        return { n: 0, pad: 'x'.repeat(1000) };
      };

      // Act
      const { stats } = await runLocalExecution(definition, {
        input: { job: 'example' },
        taskHandlers: () => plan,
        retryIntervalOverrides: { Plan: 0 },
      }).result;

      // Assert
      expect(stats).toMatchObject({
        executions: 1,
        stateEntries: 4,
        transitions: 5,
        retries: 1,
        stateCounts: { Prepare: 1, Plan: 1, 'Anything?': 1, Done: 1 },
        maxPayloadBytes: JSON.stringify({ n: 0, pad: 'x'.repeat(1000) }).length,
        // execution 2 + Pass 2 + Task (1 + failed 3 + succeeded 3 + 1) + Choice 2 + Succeed 2
        historyEvents: 16,
        maxHistoryEvents: 16,
      });
    });
  });

  describe('callbacks', () => {
    it('delivers state callbacks before the next task handler starts', async () => {
      // Arrange
      const log: string[] = [];
      const definition = {
        StartAt: 'First',
        States: {
          First: lambdaTask('Fn', { Next: 'Second' }),
          Second: lambdaTask('Fn', { End: true }),
        },
      };
      const handler: TaskHandler = async (_payload, ctx) => {
        log.push(`run ${ctx.stateName}`);
        return {};
      };

      // Act
      await runLocalExecution(definition, {
        input: {},
        taskHandlers: () => handler,
        onStateEntered: (name, type) => log.push(`enter ${name} ${type}`),
        onStateExited: (name) => log.push(`exit ${name}`),
      }).result;

      // Assert
      expect(log).toEqual([
        'enter First Task',
        'run First',
        'exit First',
        'enter Second Task',
        'run Second',
        'exit Second',
      ]);
    });

    it('rejects the result with the error a callback throws', async () => {
      // Arrange
      const definition = { StartAt: 'Only', States: { Only: { Type: 'Pass', End: true } } };

      // Act
      const result = runLocalExecution(definition, {
        input: {},
        taskHandlers: () => undefined,
        onStateEntered: () => {
          throw new Error('printer broke');
        },
      }).result;

      // Assert
      await expect(result).rejects.toThrow('printer broke');
    });
  });

  describe('engine quirks', () => {
    it.each([
      {
        name: 'a Pass state with a falsy Result outputs that Result',
        states: { Only: { Type: 'Pass', Result: 0, End: true } },
        expected: 0,
      },
      {
        name: 'ResultPath "$" replaces the input',
        states: { Only: { Type: 'Pass', Result: { x: 1 }, ResultPath: '$', End: true } },
        expected: { x: 1 },
      },
      {
        name: 'a Catch with ResultPath "$" replaces the input with the error',
        states: {
          Only: {
            Type: 'Task',
            Resource: 'arn:aws:states:::sns:publish',
            Parameters: { TopicArn: 'arn:aws:sns:local:000000000000:T', Message: 'm' },
            Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$', Next: 'Caught' }],
            End: true,
          },
          Caught: { Type: 'Succeed' },
        },
        expected: { Error: 'SNS.NotFound', Cause: 'no topic' },
      },
    ])('runs as Step Functions does: $name', async ({ states, expected }) => {
      // Arrange
      const definition = { StartAt: 'Only', States: states };
      const publish: TaskHandler = async () => {
        throw namedError('SNS.NotFound', 'no topic');
      };

      // Act
      const result = await runLocalExecution(definition, { input: { a: 1 }, taskHandlers: () => publish })
        .result;

      // Assert
      expect(result.output).toEqual(expected);
    });
  });

  describe('bindings', () => {
    it.each([
      {
        name: 'a task without a handler',
        definition: { StartAt: 'Plan', States: { Plan: lambdaTask('PlanFn', { End: true }) } },
        expectedErr: new TaskBindingError(
          'cannot run the state machine locally: "Plan" (arn:aws:states:::lambda:invoke, function PlanFn) has no local handler',
        ),
      },
      {
        name: 'a callback task without an answerer',
        definition: {
          StartAt: 'Ask',
          States: {
            Ask: {
              Type: 'Task',
              Resource: 'arn:aws:states:::sqs:sendMessage.waitForTaskToken',
              Parameters: { QueueUrl: 'q', MessageBody: { 'token.$': '$$.Task.Token' } },
              End: true,
            },
          },
        },
        expectedErr: new TaskBindingError(
          'cannot run the state machine locally: "Ask" (arn:aws:states:::sqs:sendMessage.waitForTaskToken) waits for a task token but no answerTaskToken was given',
        ),
      },
      {
        name: 'a .sync integration of another service',
        definition: {
          StartAt: 'Batch',
          States: {
            Batch: {
              Type: 'Task',
              Resource: 'arn:aws:states:::batch:submitJob.sync',
              Parameters: { JobName: 'x' },
              End: true,
            },
          },
        },
        expectedErr: new UnsupportedStateError(
          'Task state "Batch" uses "arn:aws:states:::batch:submitJob.sync"; the local engine runs only states:startExecution\'s .sync integrations',
        ),
      },
      {
        name: 'a startExecution.sync without childExecutions',
        definition: {
          StartAt: 'Child',
          States: {
            Child: {
              Type: 'Task',
              Resource: 'arn:aws:states:::states:startExecution.sync:2',
              Parameters: { StateMachineArn: 'x' },
              End: true,
            },
          },
        },
        expectedErr: new TaskBindingError(
          'cannot run the state machine locally: "Child" (arn:aws:states:::states:startExecution.sync:2) starts child executions but no childExecutions was given',
        ),
      },
      {
        name: 'JSONata',
        definition: {
          QueryLanguage: 'JSONata',
          StartAt: 'Only',
          States: { Only: { Type: 'Pass', End: true } },
        },
        expectedErr: new UnsupportedStateError(
          'the state machine uses JSONata or variables (Assign); the local engine runs JSONPath definitions only',
        ),
      },
    ])('refuses $name before running anything', ({ definition, expectedErr }) => {
      // Act
      const act = () => runLocalExecution(definition, { input: {}, taskHandlers: () => undefined });

      // Assert
      expect(act).toThrow(expectedErr);
      expect(act).toThrow(expectedErr.constructor as new () => Error);
    });

    it('skips asl-validator when validate is false', async () => {
      // Arrange
      const definition = {
        StartAt: 'Only',
        States: { Only: { Type: 'Pass', End: true, 'X-Note': 'not ASL' } },
      };

      // Act
      const result = await runLocalExecution(definition, {
        input: { a: 1 },
        taskHandlers: () => undefined,
        validate: false,
      }).result;

      // Assert
      expect(result).toMatchObject({ status: 'SUCCEEDED', output: { a: 1 } });
      expect(() => runLocalExecution(definition, { input: {}, taskHandlers: () => undefined })).toThrow(
        InvalidDefinitionError,
      );
    });

    it('refuses an invalid definition with the validator message', () => {
      // Act
      const act = () =>
        runLocalExecution({ StartAt: 'Missing', States: {} }, { input: {}, taskHandlers: () => undefined });

      // Assert
      expect(act).toThrow(InvalidDefinitionError);
      expect(act).toThrow(/^State machine definition is invalid/);
    });
  });
});

describe('validateDefinition', () => {
  it('refuses a transition to a state that does not exist, as asl-validator does', () => {
    // Arrange
    const definition = { StartAt: 'A', States: { A: { Type: 'Pass', Next: 'Nowhere' } } };

    // Act
    const act = () => validateDefinition(definition);

    // Assert
    expect(act).toThrow(InvalidDefinitionError);
    expect(act).toThrow(/Nowhere/);
  });

  it('accepts a valid definition and leaves it as it was written', () => {
    // Arrange
    const definition = { StartAt: 'A', States: { A: { Type: 'Pass', End: true } } };

    // Act
    validateDefinition(definition);

    // Assert: asl-validator writes its defaults into what it checks; the caller's is untouched.
    expect(definition).toEqual({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } });
  });
});
