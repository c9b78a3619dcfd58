/**
 * Scenario: `nomad-restart check` in-process against a faked Step Functions that runs each
 * execution it starts through the synthesized definition, the local engine and the real handlers
 * (`local-executions.ts`), and a faked CloudWatch holding the stack's alarms. A passing
 * deployment: the check execution parks its question through the ask function, this identity
 * answers it, the execution ends with the answer, every alarm has an action; exit 0. A failing
 * one: SendTaskSuccess denied (the check execution is stopped, the fix says to widen the grant),
 * an alarm without actions (the fix names alarmTopicArn); exit 1. A missing or malformed ARN is a
 * usage error and nothing is started.
 */
import { CloudWatchClient, DescribeAlarmsCommand, type MetricAlarm } from '@aws-sdk/client-cloudwatch';
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { CHECK_USAGE, runCheckCommand } from '../../../lib/cli/commands/check-command';
import { operatorName } from '../../../lib/cli/terminal/operator';
import { loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import { FakeStepFunctions } from '../../engines/aws/helpers/fake-step-functions';
import { fakeTerminal, MACHINE } from '../../engines/aws/helpers/fixtures';
import { type LocalExecutions, runExecutionsLocally } from '../../engines/aws/helpers/local-executions';
import { bindToSdkMock } from '../../engines/aws/helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const cloudwatch = mockClient(CloudWatchClient);

let fake: FakeStepFunctions;
let executions: LocalExecutions;

// The synthesis a first local run makes is not the check's to wait for (waitMs bounds the check).
beforeAll(async () => {
  await loadLocalDefinition();
}, 300_000);

beforeEach(() => {
  fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  executions = runExecutionsLocally(fake);
});
afterEach(async () => {
  await executions.settled();
  sfn.reset();
  cloudwatch.reset();
});

const alarm = (name: string, actions: string[]): MetricAlarm => ({
  AlarmName: `NomadRestart-${name}`,
  ActionsEnabled: true,
  AlarmActions: actions,
});
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:nomad-restart-alarms';

/** Runs `check` with its output's run-specific parts (execution name, operator) made stable. */
async function check(args: string[]) {
  const tty = fakeTerminal();
  tty.streams.stdin.isTTY = false;
  const exitCode = await runCheckCommand(args, {
    ...tty.streams,
    env: {},
    awsClients: { sfn: new SFNClient({ region: 'eu-west-1' }), cloudwatch: new CloudWatchClient({}) },
    pollMs: 20,
    waitMs: 60_000,
  });
  const stable = (text: string) =>
    text.replaceAll(/check-[0-9a-f-]{36}/g, 'check-<id>').replaceAll(operatorName({}), '<operator>');
  return { exitCode, out: stable(tty.output()), stderr: stable(tty.stderr()) };
}

describe('nomad-restart check', () => {
  it('passes a deployment whose answer path works and whose alarms all notify someone', async () => {
    // Arrange
    cloudwatch.on(DescribeAlarmsCommand, { AlarmNamePrefix: 'NomadRestart-' }).resolves({
      MetricAlarms: [alarm('ExecutionsFailed', [TOPIC]), alarm('StaleLockDlqNotEmpty', [TOPIC])],
    });

    // Act
    const { exitCode, out } = await check([`-state-machine-arn=${MACHINE}`]);

    // Assert
    expect(out).toBe(
      [
        `PASS a deployment check execution starts on "${MACHINE}": "arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:check-<id>"`,
        'PASS the ask function parks the check question',
        'PASS this identity answers it with states:SendTaskSuccess as "<operator>"',
        'PASS the check execution ends with the answer',
        'PASS the alarms of stack "NomadRestart" notify someone (2 alarms, each with an action)',
        'All 5 checks passed',
        '',
      ].join('\n'),
    );
    expect(exitCode).toBe(0);
    const [started] = fake.received('StartExecution');
    expect(JSON.parse(String(started?.['input']))).toEqual({ deploymentCheck: true });
    const [execution] = fake.executions.values();
    expect(execution?.status).toBe('SUCCEEDED');
  });

  it('fails a deployment that denies SendTaskSuccess and has an alarm without actions, with each fix', async () => {
    // Arrange
    fake.faults.push(({ operation }) =>
      operation === 'SendTaskSuccess'
        ? {
            name: 'AccessDeniedException',
            message:
              'User: arn:aws:sts::123456789012:assumed-role/operator/me is not authorized to perform: states:SendTaskSuccess',
          }
        : undefined,
    );
    cloudwatch.on(DescribeAlarmsCommand).resolves({
      MetricAlarms: [alarm('ExecutionsFailed', [TOPIC]), alarm('AskDlqNotEmpty-1A2B', [])],
    });

    // Act
    const { exitCode, out, stderr } = await check([
      `-state-machine-arn=${MACHINE}`,
      '-stack-name',
      'NomadRestart',
    ]);

    // Assert
    expect(out).toBe(
      [
        `PASS a deployment check execution starts on "${MACHINE}": "arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:check-<id>"`,
        'PASS the ask function parks the check question',
        'FAIL this identity answers it with states:SendTaskSuccess as "<operator>": Error answering the question of execution "arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:check-<id>": AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/operator/me is not authorized to perform: states:SendTaskSuccess; this needs the IAM action states:SendTaskSuccess; the check execution was stopped',
        `  fix: grant states:SendTaskSuccess on Resource "*" to whoever answers (this identity, the approval endpoint's role): the task token, not an ARN in the request, names the execution, and AWS may not match the state machine's ARN to it (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsstepfunctions.html)`,
        'FAIL the alarms of stack "NomadRestart" notify someone: 1 of 2 alarms have no action: "NomadRestart-AskDlqNotEmpty-1A2B"',
        '  fix: deploy with -c alarmTopicArn=<ARN of an SNS topic someone is subscribed to>: every alarm the stack creates then notifies it (docs/deploying.md)',
        '2 of 4 checks failed',
        '',
      ].join('\n'),
    );
    expect(stderr).toBe('2 of 4 checks failed\n');
    expect(exitCode).toBe(1);
    const [execution] = fake.executions.values();
    expect(execution?.status).toBe('ABORTED');
  });

  it('prints its usage on stdout for -help and starts nothing', async () => {
    // Act
    const { exitCode, out, stderr } = await check(['-help']);

    // Assert
    expect(out).toBe(`${CHECK_USAGE}\n`);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(fake.calls).toEqual([]);
  });

  it.each([
    { name: 'a missing ARN', args: [], expectedErr: 'The check command requires -state-machine-arn' },
    {
      name: 'a malformed ARN',
      args: ['-state-machine-arn', 'arn:aws:states:eu-west-1:123:NomadRestart'],
      expectedErr:
        'Invalid -state-machine-arn value "arn:aws:states:eu-west-1:123:NomadRestart": expected arn:<partition>:states:<region>:<account>:stateMachine:<name>',
    },
    {
      name: 'an argument',
      args: [`-state-machine-arn=${MACHINE}`, 'web'],
      expectedErr: 'This command takes no arguments',
    },
  ])('refuses $name with its usage, starting nothing', async ({ args, expectedErr }) => {
    // Act
    const { exitCode, stderr } = await check(args);

    // Assert
    expect(stderr).toBe(`${expectedErr}\n${CHECK_USAGE}\n`);
    expect(exitCode).toBe(1);
    expect(fake.calls).toEqual([]);
    expect(cloudwatch.calls()).toEqual([]);
  });
});
