/**
 * Scenario: `nomad-restart -engine=aws` against a faked Step Functions (and DynamoDB) whose
 * execution history grows by one chunk per poll, shaped as the restart state machine writes it.
 */
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import {
  ExecutionDoesNotExist,
  GetExecutionHistoryCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  TaskTimedOut,
} from '@aws-sdk/client-sfn';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { type RunRestartOnAwsRequest, runRestartOnAws } from '../../../lib/engines/aws';
import type { ProgressEvent } from '../../../lib/restart/events';
import { restartInputSchema, toRestartInput, validateRestartInput } from '../../../lib/restart/input';
import type { Answer, Question } from '../../../lib/restart/questions';
import { ev, FakeExecution } from './helpers/fake-history';

const sfn = mockClient(SFNClient);
const ddb = mockClient(DynamoDBClient);
// The approval store reads and deletes questions through the document client.
const documents = mockClient(DynamoDBDocumentClient);

const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart';
const EXEC1 = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-1';
const EXEC2 = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-2';
const options = validateRestartInput({ job: 'example', batchSize: 2 }, { interactive: true });
const plan = { jobId: 'example', namespace: 'default', planKey: 'runs/x/plan.json' };

const started: ProgressEvent = { type: 'restart-started', time: 1, count: 4 };
const batch1: ProgressEvent = { type: 'batch-started', time: 2, batchNumber: 1, size: 2 };
const alloc1: ProgressEvent = {
  type: 'allocation-restarting',
  time: 3,
  allocationId: 'a1',
  group: 'web',
  mode: { kind: 'running-tasks' },
};
const batch2: ProgressEvent = { type: 'batch-started', time: 4, batchNumber: 2, size: 2 };
const finished: ProgressEvent = { type: 'finished', time: 5, errors: [], canceled: false };
const proceed = {
  kind: 'proceed' as const,
  prompt: 'Proceed with the next batch? [Y/n/<wait duration>]',
  summary: '',
};

/** Validate, plan, lock (with the plan's line): the first chunk of every run here. */
const planned = () => [
  ev.step('Validate input', []),
  ev.step('Plan restart', [], { plan }),
  ev.step('Lock job', [started], { plan }),
];
const firstBatch = () => [
  ev.step('Check deployments', [], { plan }),
  ev.step('Restart batch', [batch1, alloc1], { plan }),
  ev.choice('Batch settled?', [batch1, alloc1]),
  ev.step('Decide', [], { plan }),
];
const finishing = () => [
  ev.step('Finish restart', [finished], { plan }),
  ev.step('Release lock', [], { plan }),
  ev.succeeded({
    outcome: 'succeeded',
    jobId: 'example',
    namespace: 'default',
    restarted: 2,
    failed: 0,
    errorText: '',
  }),
];

/** Serves `GetExecutionHistory` from fake executions. */
function serve(executions: Record<string, FakeExecution>): void {
  sfn.on(StartExecutionCommand).resolves({ executionArn: EXEC1, startDate: new Date(0) });
  sfn.on(GetExecutionHistoryCommand).callsFake((input) => {
    const execution = executions[input.executionArn];
    if (execution === undefined) {
      throw new ExecutionDoesNotExist({
        message: `Execution Does Not Exist: '${input.executionArn}'`,
        $metadata: {},
      });
    }
    return execution.read(input);
  });
}

/** Runs the command with fast polls and retries; records what it rendered, asked and printed. */
async function run(overrides: Partial<RunRestartOnAwsRequest> = {}, answers: Answer[] = []) {
  const emitted: ProgressEvent[] = [];
  const asked: Question[] = [];
  /** Whether the run had been canceled when each question was handed to the asker. */
  const canceledWhenAsked: boolean[] = [];
  const errors: string[] = [];
  const result = await runRestartOnAws({
    options,
    stateMachineArn: MACHINE,
    clients: {
      sfn: new SFNClient({ region: 'eu-west-1' }),
      dynamodb: new DynamoDBClient({ region: 'eu-west-1' }),
    },
    emit: (event) => emitted.push(event),
    operator: 'tester@laptop',
    // The asker's contract: once canceled, the question's default, without asking.
    ask: async (question, canceled) => {
      asked.push(question);
      canceledWhenAsked.push(canceled.aborted);
      return canceled.aborted ? question.defaultOnInterrupt : (answers.shift() ?? { kind: 'yes' });
    },
    printError: (message) => errors.push(message),
    pollIntervalMs: 0,
    env: {},
    retry: { retries: 3, minTimeoutMs: 1 },
    ...overrides,
  });
  return { result, emitted, asked, canceledWhenAsked, errors };
}

const awsError = (name: string, message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { name, $fault: 'client', $metadata: {}, ...extra });

describe('runRestartOnAws', () => {
  afterEach(() => {
    sfn.reset();
    ddb.reset();
    documents.reset();
  });

  describe('starting', () => {
    it('sends the restart options and who started it, and no secret', async () => {
      // Arrange
      const saved = process.env['NOMAD_TOKEN'];
      process.env['NOMAD_TOKEN'] = 'secret-token-0d4e';
      serve({ [EXEC1]: new FakeExecution([planned(), finishing()]) });

      // Act
      try {
        await run({ env: process.env });
      } finally {
        if (saved === undefined) delete process.env['NOMAD_TOKEN'];
        else process.env['NOMAD_TOKEN'] = saved;
      }

      // Assert
      const input = sfn.commandCalls(StartExecutionCommand)[0]?.args[0].input;
      expect(input?.stateMachineArn).toBe(MACHINE);
      expect(input?.input).not.toContain('secret-token-0d4e');
      expect(JSON.parse(input?.input ?? '')).toEqual({
        ...toRestartInput(options),
        startedBy: 'tester@laptop',
      });
      expect(restartInputSchema.safeParse(JSON.parse(input?.input ?? '')).success).toBe(true);
    });

    it.each([
      {
        name: 'a bad state machine ARN',
        overrides: { stateMachineArn: EXEC1 },
        expectedErr: `Invalid -state-machine-arn value "${EXEC1}": expected arn:<partition>:states:<region>:<account>:stateMachine:<name>`,
      },
      {
        name: 'options that do not validate',
        overrides: { options: { ...options, job: '' } },
        expectedErr: 'Invalid input field "job": got "", expected a job ID or ID prefix (non-empty string)',
      },
    ])('starts nothing on $name', async ({ overrides, expectedErr }) => {
      // Arrange
      serve({});

      // Act
      const { result, errors } = await run(overrides);

      // Assert
      expect(result).toEqual({ exitCode: 1, status: 'NOT_STARTED', executionArns: [] });
      expect(errors).toEqual([expectedErr]);
      expect(sfn.calls()).toHaveLength(0);
    });
  });

  describe('following', () => {
    it('renders each event once and in order as the history grows', async () => {
      // Arrange
      serve({ [EXEC1]: new FakeExecution([planned(), firstBatch(), finishing()]) });

      // Act
      const { result, emitted, errors } = await run();

      // Assert
      expect(emitted).toEqual([started, batch1, alloc1, finished]);
      expect(result).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [EXEC1] });
      expect(errors).toEqual([]);
    });

    it('follows history pages with nextToken, newest first, with execution data', async () => {
      // Arrange
      const execution = new FakeExecution([[...planned(), ...firstBatch(), ...finishing()]]);
      serve({ [EXEC1]: execution });

      // Act
      const { emitted } = await run({ historyPageSizes: { first: 4, wide: 4 } });

      // Assert: 10 new events: the small first page reaches none seen, so the read starts again
      // in wide pages (here also 4) → tokens "4" and "8" after it.
      expect(execution.reads.map((r) => r.nextToken)).toEqual([undefined, undefined, '4', '8']);
      expect(execution.reads.every((r) => r.reverseOrder === true && r.includeExecutionData === true)).toBe(
        true,
      );
      expect(emitted).toEqual([started, batch1, alloc1, finished]);
    });

    it('follows a continue-as-new chain', async () => {
      // Arrange
      serve({
        [EXEC1]: new FakeExecution([
          planned(),
          [...firstBatch(), ev.continued(EXEC2, []), ev.succeeded({ executionArn: EXEC2 })],
        ]),
        [EXEC2]: new FakeExecution([
          [ev.step('Resume run', [], { plan }), ev.step('Restart batch', [batch2], { plan })],
          finishing(),
        ]),
      });

      // Act
      const { result, emitted } = await run();

      // Assert
      expect(result).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [EXEC1, EXEC2] });
      expect(emitted).toEqual([started, batch1, alloc1, batch2, finished]);
    });

    it('prints a failed step once, with its message and no trace', async () => {
      // Arrange
      const cause = JSON.stringify({
        errorType: 'UnexpectedResponseError',
        errorMessage: 'Unexpected response code: 500 (boom)',
        trace: [
          'UnexpectedResponseError: Unexpected response code',
          '    at restart (/var/task/index.mjs:1:1)',
        ],
      });
      serve({
        [EXEC1]: new FakeExecution([
          planned(),
          [
            ev.step('Restart batch', [batch1], { plan }),
            ev.step('Release lock after error', [batch1], { plan }),
            ev.failed('StepFailed', cause),
          ],
        ]),
      });

      // Act
      const { result, emitted, errors } = await run();

      // Assert
      expect(emitted).toEqual([started, batch1]);
      expect(errors).toEqual(['Unexpected response code: 500 (boom)']);
      expect(result).toEqual({ exitCode: 1, status: 'FAILED', executionArns: [EXEC1] });
    });

    it.each([
      { name: 'a success', end: finishing().at(-1), exitCode: 0, status: 'SUCCEEDED', printed: [] },
      {
        name: 'a run with errors',
        end: ev.succeeded({ outcome: 'failed', errorText: '1 error occurred' }),
        exitCode: 1,
        status: 'SUCCEEDED',
        printed: [],
      },
      {
        name: 'JobNotFound',
        end: ev.failed(
          'JobNotFound',
          JSON.stringify({
            errorType: 'JobNotFoundError',
            errorMessage: 'No job(s) with prefix or ID "example" found',
            trace: ['at x'],
          }),
        ),
        exitCode: 1,
        status: 'FAILED',
        printed: ['No job(s) with prefix or ID "example" found'],
      },
      {
        name: 'Canceled',
        end: ev.failed('Canceled', 'Canceling job restart process'),
        exitCode: 0,
        status: 'FAILED',
        printed: [],
      },
      {
        name: 'RestartFailed',
        end: ev.failed('RestartFailed', 'errors'),
        exitCode: 1,
        status: 'FAILED',
        printed: [],
      },
      {
        name: 'an abort',
        end: ev.aborted(),
        exitCode: 1,
        status: 'ABORTED',
        printed: [`Restart aborted: execution "${EXEC1}" was stopped`],
      },
      {
        name: 'a timeout',
        end: ev.timedOut(),
        exitCode: 1,
        status: 'TIMED_OUT',
        printed: [`Restart timed out: execution "${EXEC1}" ran past its time limit`],
      },
    ])('exits $exitCode on $name', async ({ end, exitCode, status, printed }) => {
      // Arrange
      if (end === undefined) throw new Error('row without an end event');
      serve({ [EXEC1]: new FakeExecution([planned(), [end]]) });

      // Act
      const { result, errors } = await run();

      // Assert
      expect(result).toEqual({ exitCode, status, executionArns: [EXEC1] });
      expect(errors).toEqual(printed);
    });
  });

  describe('questions', () => {
    const asking = () => [ev.askEntered(), ev.askScheduled('task-token-1', proceed), ev.askSubmitted()];
    const answeredChunk = () => [
      ev.askExited([batch1, alloc1]),
      ev.step('Apply answer', [], { plan }),
      ...finishing(),
    ];

    it('asks at the terminal and answers with SendTaskSuccess', async () => {
      // Arrange
      serve({ [EXEC1]: new FakeExecution([planned(), [...firstBatch(), ...asking()], answeredChunk()]) });
      sfn.on(SendTaskSuccessCommand).resolves({});

      // Act
      const { result, asked, emitted } = await run({}, [{ kind: 'wait', ns: 10e9 }]);

      // Assert
      expect(asked).toEqual([
        {
          kind: 'proceed',
          lines: ['Proceed with the next batch?'],
          options: 'Y/n/<wait duration>',
          defaultOnInterrupt: { kind: 'no' },
          noErrors: true,
          batchWaitAsk: true,
        },
      ]);
      const sent = sfn.commandCalls(SendTaskSuccessCommand).map((c) => c.args[0].input);
      expect(sent).toEqual([
        {
          taskToken: 'task-token-1',
          output: JSON.stringify({ answer: '10s', answeredBy: 'tester@laptop' }),
        },
      ]);
      expect(result.exitCode).toBe(0);
      expect(emitted).toEqual([started, batch1, alloc1, finished]);
    });

    it('records the answer as the question’s one decision before sending it, and keeps the item', async () => {
      // Arrange
      serve({ [EXEC1]: new FakeExecution([planned(), [...firstBatch(), ...asking()], answeredChunk()]) });
      sfn.on(SendTaskSuccessCommand).resolves({});
      const item = {
        approvalId: 'kPQd6yB4yF0Qm1c1Q2W3eA',
        executionId: EXEC1,
        taskToken: 'task-token-1',
        kind: 'proceed',
        prompt: 'Proceed with the next batch? [Y/n/<wait duration>]',
        summary: '',
        jobId: 'example',
        namespace: 'default',
        createdAt: 1,
        expiresAt: 2,
      };
      documents.on(QueryCommand).resolves({ Items: [item] });
      documents.on(GetCommand).resolves({ Item: item });
      documents
        .on(UpdateCommand)
        .callsFake((input: { ExpressionAttributeValues?: Record<string, unknown> }) => ({
          Attributes: { ...item, decision: input.ExpressionAttributeValues?.[':d'] },
        }));

      // Act
      const { asked, result } = await run({ approvalsTable: 'approvals' }, [{ kind: 'no' }]);

      // Assert
      expect(asked.map((q) => q.lines)).toEqual([['Proceed with the next batch?']]);
      expect(documents.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
        TableName: 'approvals',
        ExpressionAttributeValues: { ':e': EXEC1 },
      });
      const [decide, settle] = documents.commandCalls(UpdateCommand).map((c) => c.args[0].input);
      expect(decide).toMatchObject({
        Key: { approvalId: item.approvalId },
        ConditionExpression: 'attribute_exists(approvalId) AND attribute_not_exists(decision)',
        ExpressionAttributeValues: { ':d': { answer: 'no', answeredBy: 'tester@laptop', via: 'terminal' } },
      });
      expect(settle).toMatchObject({ ExpressionAttributeValues: { ':o': 'delivered' } });
      expect(JSON.parse(sfn.commandCalls(SendTaskSuccessCommand)[0]?.args[0].input.output ?? '')).toEqual({
        answer: 'no',
        answeredBy: 'tester@laptop',
      });
      expect(documents.commandCalls(DeleteCommand)).toEqual([]);
      expect(result.exitCode).toBe(0);
    });

    it('goes on when the question was answered elsewhere first', async () => {
      // Arrange
      serve({ [EXEC1]: new FakeExecution([planned(), [...firstBatch(), ...asking()], answeredChunk()]) });
      sfn.on(SendTaskSuccessCommand).rejects(new TaskTimedOut({ message: 'Task Timed Out', $metadata: {} }));

      // Act
      const { result, errors } = await run();

      // Assert
      expect(result).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [EXEC1] });
      expect(errors).toEqual([]);
    });
  });

  describe('interrupts', () => {
    const canceledChunk = () => [
      ev.step('Check deployments', [batch2], { plan }),
      ev.failed('Canceled', 'Canceling job restart process'),
    ];

    it('sets the cancel flag on the job lock and stops rendering', async () => {
      // Arrange
      serve({ [EXEC1]: new FakeExecution([planned(), firstBatch(), canceledChunk()]) });
      ddb.on(UpdateItemCommand).resolves({});
      const interrupt = new AbortController();
      const emitted: ProgressEvent[] = [];

      // Act
      const { result } = await run({
        lockTable: 'locks',
        signal: interrupt.signal,
        emit: (event) => {
          emitted.push(event);
          if (event.type === 'allocation-restarting') interrupt.abort();
        },
      });

      // Assert
      expect(ddb.commandCalls(UpdateItemCommand)[0]?.args[0].input).toMatchObject({
        TableName: 'locks',
        Key: { lockKey: { S: 'default/example' } },
        // The cancel names the run: its first execution, which holds the lock.
        ExpressionAttributeValues: { ':owner': { S: EXEC1 } },
      });
      expect(sfn.commandCalls(StopExecutionCommand)).toHaveLength(0);
      expect(emitted).toEqual([started, batch1, alloc1]);
      expect(result).toEqual({ exitCode: 0, status: 'FAILED', executionArns: [EXEC1] });
    });

    it('stops the execution when the lock table is not known', async () => {
      // Arrange
      serve({ [EXEC1]: new FakeExecution([planned(), firstBatch(), [ev.aborted()]]) });
      sfn.on(StopExecutionCommand).resolves({});
      const interrupt = new AbortController();

      // Act
      const { result, errors } = await run({
        signal: interrupt.signal,
        emit: (event) => {
          if (event.type === 'restart-started') interrupt.abort();
        },
      });

      // Assert
      expect(sfn.commandCalls(StopExecutionCommand).map((c) => c.args[0].input)).toEqual([
        { executionArn: EXEC1, error: 'Canceled', cause: 'Canceling job restart process' },
      ]);
      expect(ddb.calls()).toHaveLength(0);
      expect(result).toEqual({ exitCode: 0, status: 'ABORTED', executionArns: [EXEC1] });
      expect(errors).toEqual([]);
    });

    it('hands a pending question to the asker as canceled once interrupted, and sends its "no"', async () => {
      // Arrange
      const asking = [ev.askEntered(), ev.askScheduled('task-token-2', proceed), ev.askSubmitted()];
      serve({ [EXEC1]: new FakeExecution([[...planned(), ...asking], finishing()]) });
      ddb.on(UpdateItemCommand).resolves({});
      sfn.on(SendTaskSuccessCommand).resolves({});
      const interrupt = new AbortController();

      // Act
      const { canceledWhenAsked } = await run({
        lockTable: 'locks',
        signal: interrupt.signal,
        emit: () => interrupt.abort(),
      });

      // Assert
      expect(canceledWhenAsked).toEqual([true]);
      expect(ddb.commandCalls(UpdateItemCommand)).toHaveLength(1);
      expect(JSON.parse(sfn.commandCalls(SendTaskSuccessCommand)[0]?.args[0].input.output ?? '').answer).toBe(
        'no',
      );
    });
  });

  describe('AWS errors', () => {
    it('reports AccessDenied on start in one line', async () => {
      // Arrange
      serve({});
      const denied = `User: arn:aws:iam::123456789012:user/ops is not authorized to perform: states:StartExecution on resource: ${MACHINE}`;
      sfn.on(StartExecutionCommand).rejects(awsError('AccessDeniedException', denied));

      // Act
      const { result, errors } = await run();

      // Assert
      expect(result).toEqual({ exitCode: 1, status: 'NOT_STARTED', executionArns: [] });
      expect(errors).toEqual([
        `Error starting an execution of "${MACHINE}": AccessDeniedException: ${denied}; this needs the IAM action states:StartExecution`,
      ]);
      expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(1);
    });

    it('reports a missing execution and that it may still run', async () => {
      // Arrange
      serve({});

      // Act
      const { result, errors } = await run();

      // Assert
      expect(result).toEqual({ exitCode: 1, status: 'UNKNOWN', executionArns: [EXEC1] });
      expect(errors).toEqual([
        `Error reading the history of execution "${EXEC1}": ExecutionDoesNotExist: Execution Does Not Exist: '${EXEC1}'`,
        `Execution "${EXEC1}" may still be running in AWS Step Functions; follow it again with: nomad-restart attach ${EXEC1}`,
      ]);
      expect(errors.join('\n')).not.toMatch(/\n\s+at /);
    });

    it('retries throttling', async () => {
      // Arrange
      serve({ [EXEC1]: new FakeExecution([planned(), finishing()]) });
      const throttled = awsError('ThrottlingException', 'Rate exceeded', {
        $retryable: { throttling: true },
      });
      sfn
        .on(StartExecutionCommand)
        .rejectsOnce(throttled)
        .rejectsOnce(throttled)
        .resolves({ executionArn: EXEC1, startDate: new Date(0) });

      // Act
      const { result, errors } = await run();

      // Assert
      expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(3);
      expect(result).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [EXEC1] });
      expect(errors).toEqual([]);
    });

    it('gives up on throttling after the retries', async () => {
      // Arrange
      serve({});
      sfn.on(StartExecutionCommand).rejects(awsError('ThrottlingException', 'Rate exceeded'));

      // Act
      const { result, errors } = await run({ retry: { retries: 2, minTimeoutMs: 1 } });

      // Assert
      expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(3);
      expect(result.exitCode).toBe(1);
      expect(errors).toEqual([
        `Error starting an execution of "${MACHINE}": ThrottlingException: Rate exceeded`,
      ]);
    });
  });
});
