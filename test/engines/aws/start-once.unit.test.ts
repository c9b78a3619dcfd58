/**
 * Scenario: `StartExecution`'s answer is lost on the way back (the connection drops after Step
 * Functions started the execution). The command names its start once per invocation and sends
 * that name on every try, so the retry finds the execution it started (Step Functions returns
 * it while it runs, and says `ExecutionAlreadyExists` once it has ended): one execution, the one
 * followed. The name is valid for Step Functions whatever the job is called.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import {
  EXECUTION_NAME_RE,
  MAX_EXECUTION_NAME_LENGTH,
  newExecutionName,
  runRestartOnAws,
} from '../../../lib/engines/aws';
import { ev } from './helpers/fake-history';
import { FakeStepFunctions } from './helpers/fake-step-functions';
import { execArn, finishing, MACHINE, planned, recordingRequest } from './helpers/fixtures';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);

async function start(fake: FakeStepFunctions) {
  bindToSdkMock(sfn, fake);
  const { request, emitted, errors } = recordingRequest({
    pollIntervalMs: 0,
    retry: { retries: 3, minTimeoutMs: 1 },
  });
  const result = await runRestartOnAws(request);
  const names = fake.calls.filter((c) => c.operation === 'StartExecution').map((c) => c.input['name']);
  return { result, emitted, errors, names };
}

/** The first `StartExecution` takes effect but its answer never arrives. */
const loseFirstStartAnswer = (fake: FakeStepFunctions) => {
  let lost = false;
  fake.faults.push(({ operation }) => {
    if (operation !== 'StartExecution' || lost) return undefined;
    lost = true;
    return { name: 'ECONNRESET', message: 'socket hang up', transport: 'drop' };
  });
};

describe('starting an execution once', () => {
  afterEach(() => sfn.reset());

  it('names every start validly for Step Functions, and never twice the same', () => {
    // Arrange
    const jobIds = fc.string({ unit: 'grapheme', minLength: 0, maxLength: 200 });

    // Act / Assert
    fc.assert(
      fc.property(jobIds, (jobId) => {
        const first = newExecutionName(jobId);
        const second = newExecutionName(jobId);
        return EXECUTION_NAME_RE.test(first) && first.length <= MAX_EXECUTION_NAME_LENGTH && first !== second;
      }),
    );
    expect(newExecutionName('web/api', Date.parse('2026-11-24T10:15:00Z'), () => Buffer.alloc(8, 1))).toBe(
      'web-api-20261124T101500Z-0101010101010101',
    );
  });

  it('finds the running execution its lost first try started, and follows that one only', async () => {
    // Arrange
    const fake = new FakeStepFunctions();
    loseFirstStartAnswer(fake);
    fake.onStart = (execution) => fake.append(execution.arn, [...planned(), ...finishing()]);

    // Act
    const { result, names, errors } = await start(fake);

    // Assert
    expect(names).toHaveLength(2);
    expect(names[1]).toBe(names[0]);
    expect(fake.executions.size).toBe(1);
    expect(result).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [execArn(String(names[0]))] });
    expect(errors).toEqual([]);
  });

  it('takes ExecutionAlreadyExists for its own name as the start that worked (the run ended already)', async () => {
    // Arrange: the run fails at once (the job is locked), before the retry arrives.
    const fake = new FakeStepFunctions();
    loseFirstStartAnswer(fake);
    fake.onStart = (execution) =>
      fake.append(execution.arn, [
        ev.step('Validate input', []),
        ev.failed('JobLocked', 'Job "default/example" is being restarted'),
      ]);

    // Act
    const { result, names, errors } = await start(fake);

    // Assert
    expect(fake.calls.filter((c) => c.operation === 'StartExecution').map((c) => c.failedWith)).toEqual([
      'ECONNRESET',
      'ExecutionAlreadyExists',
    ]);
    expect(fake.executions.size).toBe(1);
    expect(result).toEqual({ exitCode: 1, status: 'FAILED', executionArns: [execArn(String(names[0]))] });
    expect(errors).toEqual(['Job "default/example" is being restarted']);
  });

  it('says which execution may have started when every try was lost on the way', async () => {
    // Arrange
    const fake = new FakeStepFunctions();
    fake.faults.push(({ operation }) =>
      operation === 'StartExecution'
        ? { name: 'ECONNRESET', message: 'socket hang up', transport: 'drop' }
        : undefined,
    );

    // Act
    const { result, names, errors } = await start(fake);

    // Assert
    expect(new Set(names).size).toBe(1);
    expect(fake.executions.size).toBe(1);
    expect(result).toEqual({ exitCode: 1, status: 'NOT_STARTED', executionArns: [] });
    expect(errors).toEqual([
      `Error starting an execution of "${MACHINE}": ECONNRESET: socket hang up`,
      `An execution named "${names[0]}" may have started; look with: nomad-restart attach ${execArn(String(names[0]))}`,
    ]);
  });
});
