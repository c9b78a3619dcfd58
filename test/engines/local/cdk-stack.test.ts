/**
 * Scenario: a tiny CDK stack shaped like the restart workflow (plan, ask by task token, wait,
 * restart batch, loop) is synthesized in-process; the local engine extracts its definition from
 * the template and runs it with handlers bound by Lambda logical id.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Code, Function as Fn, type Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import {
  Choice,
  Condition,
  DefinitionBody,
  Fail,
  IntegrationPattern,
  JsonPath,
  StateMachine,
  Succeed,
  TaskInput,
  Wait,
  WaitTime,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import {
  describeTaskStates,
  type ExtractedStateMachine,
  extractStateMachineDefinition,
  runLocalExecution,
  type TaskHandler,
  type TaskStateInfo,
} from '../../../lib/engines/local';
import { namedError } from './helpers/asl';

interface Synthesized {
  readonly extracted: ExtractedStateMachine;
  /** Logical id of each function, by construct id. */
  readonly logicalIds: Record<'Plan' | 'Ask' | 'Restart', string>;
}

function synthesizeWorkflowStack(): Synthesized {
  const app = new App();
  const stack = new Stack(app, 'LocalEngineTest');
  const fn = (id: string): LambdaFunction =>
    new Fn(stack, id, {
      runtime: Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = async () => ({})'),
    });
  const [plan, ask, restart] = [fn('Plan'), fn('Ask'), fn('Restart')];

  const jobNotFound = new Fail(stack, 'Job not found', {
    error: 'JobNotFound',
    cause: 'No job(s) with prefix or ID found',
  });
  const canceled = new Fail(stack, 'Canceled', { error: 'Canceled', cause: 'Job restart canceled' });
  const planTask = new LambdaInvoke(stack, 'Plan job', { lambdaFunction: plan, outputPath: '$.Payload' })
    .addRetry({ errors: ['Nomad.TransientError'], interval: Duration.seconds(2), maxAttempts: 3 })
    .addCatch(jobNotFound, { errors: ['JobNotFound'] });
  const askTask = new LambdaInvoke(stack, 'Ask to proceed', {
    lambdaFunction: ask,
    integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN,
    payload: TaskInput.fromObject({ token: JsonPath.taskToken, 'remaining.$': '$.remaining' }),
    resultPath: '$.answer',
  });
  const restartTask = new LambdaInvoke(stack, 'Restart batch', {
    lambdaFunction: restart,
    outputPath: '$.Payload',
  });
  const waitBetween = new Wait(stack, 'Wait between batches', {
    time: WaitTime.secondsPath('$.waitSeconds'),
  });
  const loop = askTask.next(
    new Choice(stack, 'Proceed?')
      .when(Condition.stringEquals('$.answer.answer', 'no'), canceled)
      .otherwise(
        waitBetween
          .next(restartTask)
          .next(
            new Choice(stack, 'Batches left?')
              .when(Condition.numberGreaterThan('$.remaining', 0), askTask)
              .otherwise(new Succeed(stack, 'Done')),
          ),
      ),
  );
  new StateMachine(stack, 'Workflow', { definitionBody: DefinitionBody.fromChainable(planTask.next(loop)) });

  const template = app.synth().getStackByName(stack.stackName).template as unknown;
  const logicalId = (f: LambdaFunction) => stack.getLogicalId(f.node.defaultChild as never);
  return {
    extracted: extractStateMachineDefinition(template),
    logicalIds: { Plan: logicalId(plan), Ask: logicalId(ask), Restart: logicalId(restart) },
  };
}

describe('the local engine on a synthesized CDK stack', () => {
  let synthesized: Synthesized;
  beforeAll(() => {
    synthesized = synthesizeWorkflowStack();
  });

  /** Binds handlers by the logical id the template gives each function. */
  const bind =
    (handlers: Partial<Record<'Plan' | 'Ask' | 'Restart', TaskHandler>>) =>
    (state: TaskStateInfo): TaskHandler | undefined => {
      const entry = Object.entries(synthesized.logicalIds).find(([, id]) => id === state.functionLogicalId);
      return entry === undefined ? undefined : handlers[entry[0] as keyof typeof handlers];
    };
  const restartBatch: TaskHandler = async (payload) => {
    const { remaining } = payload as { remaining: number };
    return { remaining: remaining - 1, waitSeconds: 3600 };
  };

  describe('extractStateMachineDefinition', () => {
    it('extracts the ASL from the template with each Lambda task naming its logical id', () => {
      // Act
      const tasks = describeTaskStates(synthesized.extracted.definition);

      // Assert
      expect(synthesized.extracted.definition['StartAt']).toBe('Plan job');
      expect(tasks.map((t) => [t.stateName, t.functionLogicalId, t.waitForTaskToken])).toEqual([
        ['Plan job', synthesized.logicalIds.Plan, false],
        ['Ask to proceed', synthesized.logicalIds.Ask, true],
        ['Restart batch', synthesized.logicalIds.Restart, false],
      ]);
    });
  });

  describe('runLocalExecution', () => {
    it('runs plan, questions, waits and batches to the end, retrying a transient plan error', async () => {
      // Arrange
      let planCalls = 0;
      const plan: TaskHandler = async () => {
        planCalls += 1;
        if (planCalls === 1) throw namedError('Nomad.TransientError', 'Unexpected response code: 503');
        return { remaining: 2, waitSeconds: 3600 };
      };
      const questions: { question: unknown; token: string }[] = [];

      // Act
      const result = await runLocalExecution(synthesized.extracted.definition, {
        input: { job: 'example' },
        stateMachineArn: synthesized.extracted.stateMachineArn,
        taskHandlers: bind({ Plan: plan, Restart: restartBatch }),
        answerTaskToken: async (question, token) => {
          questions.push({ question, token });
          return { answer: 'yes' };
        },
        retryIntervalOverrides: { 'Plan job': 0 },
        waitTimeOverrides: { 'Wait between batches': 0 },
      }).result;

      // Assert
      expect(result).toMatchObject({ status: 'SUCCEEDED', output: { remaining: 0, waitSeconds: 3600 } });
      expect(planCalls).toBe(2);
      expect(questions.map((q) => q.question)).toEqual([
        { token: questions[0]?.token, remaining: 2 },
        { token: questions[1]?.token, remaining: 1 },
      ]);
      expect(questions[0]?.token).not.toBe(questions[1]?.token);
      expect(result.stats).toMatchObject({
        retries: 1,
        stateCounts: {
          'Plan job': 1,
          'Ask to proceed': 2,
          'Proceed?': 2,
          'Wait between batches': 2,
          'Restart batch': 2,
          'Batches left?': 2,
          Done: 1,
        },
        // 2 + plan (1 + 3 failed + 3 + 1) + 2 × (ask 6 + choice 2 + wait 2 + restart 5 + choice 2) + done 2
        historyEvents: 46,
      });
    });

    it('routes JobNotFound to the Fail state with its error and cause', async () => {
      // Arrange
      const plan: TaskHandler = async () => {
        throw namedError('JobNotFound', 'No job(s) with prefix or ID "nope" found');
      };

      // Act
      const result = await runLocalExecution(synthesized.extracted.definition, {
        input: { job: 'nope' },
        taskHandlers: bind({ Plan: plan, Restart: restartBatch }),
        answerTaskToken: async () => ({ answer: 'yes' }),
      }).result;

      // Assert
      expect(result).toMatchObject({
        status: 'FAILED',
        error: 'JobNotFound',
        cause: 'No job(s) with prefix or ID found',
      });
      expect(result.stats.stateCounts).toEqual({ 'Plan job': 1, 'Job not found': 1 });
    });

    it('ends in the Canceled Fail state when the answer is no', async () => {
      // Act
      const result = await runLocalExecution(synthesized.extracted.definition, {
        input: { job: 'example' },
        taskHandlers: bind({ Plan: async () => ({ remaining: 2, waitSeconds: 1 }), Restart: restartBatch }),
        answerTaskToken: async () => ({ answer: 'no' }),
      }).result;

      // Assert
      expect(result).toMatchObject({ status: 'FAILED', error: 'Canceled', cause: 'Job restart canceled' });
      expect(result.stats.stateCounts['Restart batch']).toBeUndefined();
    });

    it('aborts promptly while waiting between batches for an hour', async () => {
      // Arrange
      const run = runLocalExecution(synthesized.extracted.definition, {
        input: { job: 'example' },
        taskHandlers: bind({
          Plan: async () => ({ remaining: 2, waitSeconds: 3600 }),
          Restart: restartBatch,
        }),
        answerTaskToken: async () => ({ answer: 'yes' }),
        onStateEntered: (name) => {
          if (name === 'Wait between batches') run.abort();
        },
      });

      // Act
      const result = await run.result;

      // Assert
      expect(result.status).toBe('ABORTED');
      expect(result.stats.stateCounts['Restart batch']).toBeUndefined();
    });
  });
});
