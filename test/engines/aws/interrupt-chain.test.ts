/**
 * Scenario: a run long enough to continue as new (its first execution hands the rest to a
 * second one) is interrupted around the hand-over, with no lock table, so the interrupt stops
 * executions. The stop reaches the chain, not one link: a successor the history names is
 * stopped too; so is one the stopped hand-over was starting (found under the name the workflow
 * gives it), even when it appears a moment after the stop; and when no successor appears, the
 * command stops looking after a few seconds. With the lock table the cancel flag names the run,
 * whichever execution runs it now.
 */
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  LATE_SUCCESSOR_LOOKS_MS,
  type RunRestartOnAwsRequest,
  runIdentityOf,
  runRestartOnAws,
  successorArnOf,
} from '../../../lib/engines/aws';
import type { ProgressEvent } from '../../../lib/restart/events';
import { continuationExecutionName } from '../../../lib/workflow/continuation-name';
import { type EventShape, ev } from './helpers/fake-history';
import { FakeStepFunctions } from './helpers/fake-step-functions';
import { batchRestarted, MACHINE, OPERATOR, options, planned, REGION } from './helpers/fixtures';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const ddb = mockClient(DynamoDBClient);

const handOverEntered: EventShape = {
  type: 'TaskStateEntered',
  stateEnteredEventDetails: { name: 'Continue as new execution', input: '{}' },
};

/**
 * A run whose first execution (started by the command) runs `first`; its successor, under the
 * name the workflow gives it, runs `second` once `createSuccessor` is called (at once by default).
 */
function chain(
  first: (successor: string) => EventShape[],
  second: EventShape[],
  successorAt: 'start' | 'later' = 'start',
) {
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  const arns = { first: '', second: '' };
  const createSuccessor = () =>
    fake.addExecution(
      arns.second,
      {
        continuation: {
          options: { verbose: false, job: 'web' },
          run: { runId: arns.first, executionId: arns.second, executionNumber: 2 },
        },
      },
      second,
    );
  fake.onStart = (execution) => {
    arns.first = execution.arn;
    arns.second = successorArnOf(execution.arn, runIdentityOf(execution.arn, JSON.parse(execution.input)));
    if (successorAt === 'start') createSuccessor();
    fake.append(execution.arn, first(arns.second));
  };
  return { fake, arns, createSuccessor };
}

/** Runs the command; Ctrl-C is confirmed when the first batch's allocation line is printed. */
async function interruptAtFirstBatch(
  fake: FakeStepFunctions,
  overrides: Partial<RunRestartOnAwsRequest> = {},
) {
  const interrupt = new AbortController();
  const emitted: ProgressEvent[] = [];
  const errors: string[] = [];
  const result = await runRestartOnAws({
    options,
    stateMachineArn: MACHINE,
    clients: { sfn: new SFNClient({ region: REGION }), dynamodb: new DynamoDBClient({ region: REGION }) },
    emit: (event) => {
      emitted.push(event);
      if (event.type === 'allocation-restarting') interrupt.abort();
    },
    ask: async (question) => question.defaultOnInterrupt,
    operator: OPERATOR,
    signal: interrupt.signal,
    printError: (message) => errors.push(message),
    pollIntervalMs: 0,
    env: {},
    retry: { retries: 3, minTimeoutMs: 1 },
    ...overrides,
  });
  return { result, emitted, errors, stopped: fake.received('StopExecution').map((i) => i['executionArn']) };
}

const secondBatch = () => [ev.step('Resume run', []), ...batchRestarted(2)];

describe('an interrupt around continue-as-new', () => {
  afterEach(() => {
    jest.useRealTimers();
    sfn.reset();
    ddb.reset();
  });

  it('names a successor as the workflow does: the job, the first execution, its digest, its number', () => {
    // Arrange
    const runId = 'abc';

    // Act
    const name = continuationExecutionName(runId, 'web', 2);

    // Assert: the digest starts FIPS 180's "abc" test vector.
    expect(name).toBe('web-abc-a9993e364706-2');
  });

  it('stops the successor when the interrupt comes as the first execution hands over', async () => {
    // Arrange
    const { fake, arns } = chain(
      (successor) => [
        ...planned(),
        ...batchRestarted(1),
        handOverEntered,
        ev.continued(successor, []),
        ev.succeeded({ executionArn: successor }),
      ],
      secondBatch(),
    );

    // Act
    const { result, emitted, stopped } = await interruptAtFirstBatch(fake);

    // Assert
    expect(stopped).toEqual([arns.second]);
    expect(fake.executions.get(arns.second)?.status).toBe('ABORTED');
    expect(result).toEqual({ exitCode: 0, status: 'ABORTED', executionArns: [arns.first, arns.second] });
    expect(emitted.filter((e) => e.type === 'batch-started')).toHaveLength(1);
  });

  it('stops the successor a hand-over cut short by the stop had already started', async () => {
    // Arrange
    const { fake, arns } = chain(() => [...planned(), ...batchRestarted(1), handOverEntered], secondBatch());

    // Act
    const { result, stopped } = await interruptAtFirstBatch(fake);

    // Assert
    expect(stopped).toEqual([arns.first, arns.second]);
    expect(fake.executions.get(arns.first)?.status).toBe('ABORTED');
    expect(fake.executions.get(arns.second)?.status).toBe('ABORTED');
    expect(result).toEqual({ exitCode: 0, status: 'ABORTED', executionArns: [arns.first, arns.second] });
  });

  it('stops a successor that appears a moment after the stop', async () => {
    // Arrange
    const { fake, arns, createSuccessor } = chain(
      () => [...planned(), ...batchRestarted(1), handOverEntered],
      secondBatch(),
      'later',
    );
    fake.faults.push(({ operation }) => {
      if (operation === 'StopExecution' && !fake.executions.has(arns.second))
        setTimeout(createSuccessor, 500);
      return undefined;
    });

    // Act
    const { result, stopped } = await interruptAtFirstBatch(fake);

    // Assert
    expect(stopped).toEqual([arns.first, arns.second]);
    expect(fake.executions.get(arns.second)?.status).toBe('ABORTED');
    expect(result.executionArns).toEqual([arns.first, arns.second]);
    expect(result.exitCode).toBe(0);
  });

  it('stops looking after a few seconds when the cut-short hand-over started nothing', async () => {
    // Arrange
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { fake, arns } = chain(() => [...planned(), ...batchRestarted(1), handOverEntered], [], 'later');

    // Act
    const running = interruptAtFirstBatch(fake);
    await jest.advanceTimersByTimeAsync((LATE_SUCCESSOR_LOOKS_MS.at(-1) ?? 0) + 1_000);
    const { result, stopped } = await running;

    // Assert
    const looks = fake.calls.filter(
      (c) => c.operation === 'GetExecutionHistory' && c.input['executionArn'] === arns.second,
    );
    expect(looks.map((c) => c.failedWith)).toEqual(
      LATE_SUCCESSOR_LOOKS_MS.map(() => 'ExecutionDoesNotExist'),
    );
    expect(stopped).toEqual([arns.first]);
    expect(result).toEqual({ exitCode: 0, status: 'ABORTED', executionArns: [arns.first] });
  });

  it('flags the run’s lock (named after its first execution) when the interrupt comes in the second', async () => {
    // Arrange
    const { fake, arns } = chain(
      (successor) => [
        ...planned(),
        ev.step('Check deployments', []),
        handOverEntered,
        ev.continued(successor, []),
        ev.succeeded({ executionArn: successor }),
      ],
      secondBatch(),
    );
    // The flag is honoured at the second execution's next safe point.
    ddb.on(UpdateItemCommand).callsFake(() => {
      fake.append(arns.second, [
        ev.step('Check deployments', []),
        ev.failed('Canceled', 'Canceling job restart process'),
      ]);
      return {};
    });

    // Act
    const { result, stopped } = await interruptAtFirstBatch(fake, { lockTable: 'locks' });

    // Assert
    expect(ddb.commandCalls(UpdateItemCommand)[0]?.args[0].input).toMatchObject({
      TableName: 'locks',
      ExpressionAttributeValues: { ':owner': { S: arns.first } },
    });
    expect(stopped).toEqual([]);
    expect(result).toEqual({ exitCode: 0, status: 'FAILED', executionArns: [arns.first, arns.second] });
  });
});
