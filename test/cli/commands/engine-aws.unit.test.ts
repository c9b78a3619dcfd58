// Scenario: `nomad-restart -engine=aws` through the command's own front end (in-process, so
// aws-sdk-client-mock can stand in for Step Functions): the execution's events come out as
// Nomad's lines, a failed execution's cause is printed once on stderr, the exit code is Nomad's,
// and the execution input carries the options and who started the run (user@host), and no token.
import { GetExecutionHistoryCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { operatorName } from '../../../lib/cli/terminal/operator';
import type { ProgressEvent } from '../../../lib/restart/events';
import { runCommand } from '../../e2e/helpers/run-command';
import { ev, FakeExecution } from '../../engines/aws/helpers/fake-history';

const sfn = mockClient(SFNClient);
const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart';
const EXEC = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-1';
const plan = { jobId: 'example', namespace: 'default', planKey: 'runs/x/plan.json' };
const T = Date.parse('2026-11-23T10:00:00Z');
const started: ProgressEvent = { type: 'restart-started', time: T, count: 2 };
const restarting: ProgressEvent = {
  type: 'allocation-restarting',
  time: T,
  allocationId: '0a1b2c3d-0000-4000-8000-000000000001',
  group: 'web',
  mode: { kind: 'running-tasks' },
};
const finished: ProgressEvent = { type: 'finished', time: T, errors: [], canceled: false };

function serve(execution: FakeExecution): void {
  sfn.on(StartExecutionCommand).resolves({ executionArn: EXEC, startDate: new Date(0) });
  sfn.on(GetExecutionHistoryCommand).callsFake((input) => execution.read(input));
}

async function command(args: string[]) {
  return runCommand(args, { NOMAD_TOKEN: 'secret-token-7f3a', AWS_REGION: 'eu-west-1' });
}

describe('nomad-restart -engine=aws', () => {
  afterEach(() => sfn.reset());

  it('prints the execution’s events as Nomad’s lines and exits 0', async () => {
    // Arrange
    serve(
      new FakeExecution([
        [ev.step('Plan restart', [], { plan }), ev.step('Lock job', [started], { plan })],
        [
          ev.step('Restart batch', [restarting], { plan }),
          ev.step('Finish restart', [finished], { plan }),
          ev.succeeded({ outcome: 'succeeded', jobId: 'example', namespace: 'default', restarted: 2 }),
        ],
      ]),
    );

    // Act
    const result = await command(['-engine=aws', `-state-machine-arn=${MACHINE}`, '-yes', 'example']);

    // Assert
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      '==> <ts>: Restarting 2 allocations',
      '    <ts>: Restarting running tasks in allocation "0a1b2c3d" for group "web"',
      '==> <ts>: Job restart finished',
      '',
      'Job restarted successfully!',
      '',
    ]);
    expect(result.code).toBe(0);
    const input = sfn.commandCalls(StartExecutionCommand)[0]?.args[0].input;
    expect(JSON.parse(input?.input ?? '{}')).toMatchObject({
      job: 'example',
      yes: true,
      startedBy: operatorName(),
    });
    expect(operatorName()).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(input?.input).not.toContain('secret-token-7f3a');
  });

  it('prints a failed execution’s cause once on stderr and exits 1', async () => {
    // Arrange
    const cause = JSON.stringify({
      errorType: 'UnexpectedResponseError',
      errorMessage: 'Unexpected response code: 500 (boom)',
    });
    serve(
      new FakeExecution([
        [
          ev.step('Plan restart', [], { plan }),
          ev.step('Lock job', [started], { plan }),
          ev.failed('StepFailed', cause),
        ],
      ]),
    );

    // Act
    const result = await command(['-engine=aws', `-state-machine-arn=${MACHINE}`, '-yes', 'example']);

    // Assert
    expect(result.stdout).toBe('==> <ts>: Restarting 2 allocations\n');
    expect(result.stderr).toBe('Unexpected response code: 500 (boom)\n');
    expect(result.code).toBe(1);
  });
});
