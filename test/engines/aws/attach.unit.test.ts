/**
 * Scenario: `nomad-restart attach <execution-arn>` re-attaches a terminal to a run it did not
 * start (the console, a schedule, another laptop, a follower that was closed). It starts
 * nothing. Given any execution of the run, it prints the run's lines from its first execution
 * on (rendered as the run was started: `-verbose` or not), follows it through its
 * continue-as-new successors, asks its questions at the terminal and exits with Nomad's code.
 * Without a terminal it shows a question and leaves it open for someone else. A wrong ARN or
 * an execution that does not exist ends it at once.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { runAttachCommand } from '../../../lib/cli/commands/attach-command';
import { operatorName } from '../../../lib/cli/terminal/operator';
import { successorArnOf } from '../../../lib/engines/aws';
import type { ProgressEvent } from '../../../lib/restart/events';
import { ev } from './helpers/fake-history';
import { FakeStepFunctions } from './helpers/fake-step-functions';
import {
  answered,
  asking,
  batchRestarted,
  batchSettled,
  execArn,
  fakeTerminal,
  finishing,
  lines,
  planned,
} from './helpers/fixtures';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const FIRST = execArn('scheduled-run-1');
const SECOND = successorArnOf(FIRST, { runId: FIRST, executionNumber: 1, job: 'example' });
const T = Date.parse('2026-11-24T10:00:00Z');
const verboseStatus: ProgressEvent = {
  type: 'allocation-status',
  time: T,
  allocationId: 'c1c1c1c1-0000-4000-8000-000000000001',
  status: 'pending',
  verbose: true,
};

/** `attach` at a TTY-like terminal, without colours. */
function attach(args: string[], tty = fakeTerminal()) {
  const exitCode = runAttachCommand(['-no-color', ...args], {
    ...tty.streams,
    env: { TZ: 'UTC' },
    onInterrupt: tty.interrupts,
  });
  return { tty, exitCode };
}

/** A run of two executions: the first hands over after batch 1; the second runs `second`. */
function twoExecutions(second: Parameters<FakeStepFunctions['append']>[1], verbose = false) {
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  fake.addExecution(FIRST, { job: 'example', batchSize: 1, verbose }, [
    ...planned(),
    ...batchRestarted(1),
    ev.step('Await batch', [verboseStatus]),
    ...batchSettled(1),
    ev.continued(SECOND, []),
    ev.succeeded({ executionArn: SECOND }),
  ]);
  fake.addExecution(
    SECOND,
    {
      continuation: { options: { verbose }, run: { runId: FIRST, executionId: SECOND, executionNumber: 2 } },
    },
    [ev.step('Resume run', []), ...second],
  );
  return fake;
}

describe('nomad-restart attach', () => {
  afterEach(() => sfn.reset());

  it('prints a finished run from its first execution, as it was started, and exits with its code', async () => {
    // Arrange
    const fake = twoExecutions(
      [...batchRestarted(2), ...batchSettled(2), ...batchRestarted(3), ...batchSettled(3), ...finishing()],
      true,
    );

    // Act: given the second execution of the run.
    const { tty, exitCode } = attach([SECOND]);

    // Assert
    expect(await exitCode).toBe(0);
    const out = tty.output().split('\n');
    expect(out[0]).toBe(lines.started);
    // Verbose, as started: full IDs and the verbose-only status line.
    expect(out).toContain(
      '    <ts>: Rescheduling allocation "a1a1a1a1-0000-4000-8000-000000000001" for group "web"',
    );
    expect(out).toContain('    <ts>: Allocation "c1c1c1c1-0000-4000-8000-000000000001" is "pending"');
    expect(out).toContain('==> <ts>: Restarting 3rd batch of 1 allocations');
    expect(out.slice(-3)).toEqual(['', 'Job restarted successfully!', '']);
    expect(fake.calls.some((c) => c.operation === 'StartExecution')).toBe(false);
  });

  it('exits 1 with the cause of a run that failed', async () => {
    // Arrange
    twoExecutions([ev.failed('JobNotFound', 'No job(s) with prefix or ID "example" found')]);

    // Act
    const { tty, exitCode } = attach([FIRST]);

    // Assert
    expect(await exitCode).toBe(1);
    expect(tty.stderr()).toBe('No job(s) with prefix or ID "example" found\n');
  });

  it('follows a running run, asks its question here and sends the answer', async () => {
    // Arrange
    const fake = twoExecutions([...batchRestarted(2), ...batchSettled(2), ...asking('token-7')]);
    fake.onAnswer = () =>
      fake.append(SECOND, [...answered(), ...batchRestarted(3), ...batchSettled(3), ...finishing()]);

    // Act
    const { tty, exitCode } = attach([FIRST]);
    await tty.waitFor(lines.proceedQuestion);
    tty.type('y');

    // Assert
    expect(await exitCode).toBe(0);
    expect(fake.received('SendTaskSuccess')).toEqual([
      {
        taskToken: 'token-7',
        output: JSON.stringify({ answer: 'yes', answeredBy: operatorName() }),
      },
    ]);
    expect(tty.output()).toContain(lines.rescheduling(3));
    expect(fake.calls.some((c) => c.operation === 'StartExecution')).toBe(false);
  });

  it('leaves a question open without a terminal and follows until someone else answers', async () => {
    // Arrange
    const fake = twoExecutions([...asking('token-8')]);
    const tty = fakeTerminal();
    tty.streams.stdin.isTTY = false;

    // Act
    const { exitCode } = attach([FIRST], tty);
    await tty.waitFor('No terminal here to answer this question');
    fake.append(SECOND, [...answered({ answer: 'yes', answeredBy: 'alice (Slack U1)' }), ...finishing()]);

    // Assert
    expect(await exitCode).toBe(0);
    expect(tty.output()).toContain('==> <ts>: Proceed with the next batch? [Y/n/<wait duration>]\n');
    expect(tty.output()).toContain('==> <ts>: Question answered "yes" by alice (Slack U1)\n');
    expect(fake.received('SendTaskSuccess')).toEqual([]);
  });

  it.each([
    {
      name: 'an ARN that is not an execution’s',
      arn: 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart',
      expected:
        'Invalid execution ARN "arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart": expected arn:<partition>:states:<region>:<account>:execution:<state machine>:<name>\n',
    },
    {
      name: 'an execution that does not exist',
      arn: execArn('nope'),
      expected: `Error reading the history of execution "${execArn('nope')}": ExecutionDoesNotExist: Execution Does Not Exist: '${execArn('nope')}'\n`,
    },
  ])('ends at once on $name', async ({ arn, expected }) => {
    // Arrange
    const fake = new FakeStepFunctions();
    bindToSdkMock(sfn, fake);

    // Act
    const { tty, exitCode } = attach([arn]);

    // Assert
    expect(await exitCode).toBe(1);
    expect(tty.stderr()).toBe(expected);
    expect(fake.calls.length).toBeLessThanOrEqual(1);
  });

  it('refuses a command line without exactly one execution ARN, with its usage', async () => {
    // Act
    const { tty, exitCode } = attach([]);

    // Assert
    expect(await exitCode).toBe(1);
    expect(tty.stderr()).toMatch(
      /^This command takes one argument: <execution-arn>\nUsage: nomad-restart attach/,
    );
  });
});
