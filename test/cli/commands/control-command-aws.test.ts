/**
 * Scenario: `nomad-restart pause|resume|stop <execution ARN>` in-process, against the lock and
 * approvals tables on a DynamoDB emulator (the deployed tables' keys and indexes) and a faked
 * Step Functions. The execution's input names its run, the lock table's owner index the job it
 * holds: pause and stop are recorded on that job's lock item, attributed; a run parked on its
 * pause question has it answered (resume: yes, stop: no) through the one decision, with exactly
 * one SendTaskSuccess. A run that has ended, an execution that does not exist, a malformed ARN
 * and a resume with nothing paused each get one clear line and exit 1, and nothing is written.
 * Given the job of an AWS run (its lock in Nomad names it), the request goes the same way.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { runControlCommand } from '../../../lib/cli/commands/control-command';
import { operatorName } from '../../../lib/cli/terminal/operator';
import type { ControlVerb } from '../../../lib/control/requests';
import { NomadClient } from '../../../lib/nomad';
import {
  AWS_SHARED_LOCK_TTL,
  awsLockIdentity,
  controlRequestPath,
  DynamoDbJobLock,
  NomadVariablesLock,
} from '../../../lib/stores';
import { continuationExecutionName } from '../../../lib/workflow/continuation-name';
import { startSimulator } from '../../../sim/index';
import { emulatedApprovalsTable, parkedOn } from '../../engines/aws/helpers/chat-fixtures';
import { FakeStepFunctions } from '../../engines/aws/helpers/fake-step-functions';
import { execArn, fakeTerminal } from '../../engines/aws/helpers/fixtures';
import { bindToSdkMock } from '../../engines/aws/helpers/sdk-binding';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { simpleJob } from '../../steps/helpers/harness';

const sfn = mockClient(SFNClient);
const KEY = { namespace: 'default', jobId: 'web' };
const RUN = execArn('web-run-1');
const PAUSE_PROMPT = 'Paused by alice@laptop (terminal) at 2026-12-07T14:00:00Z.\nResume the restart? [y/N]';

const emulated = emulatedApprovalsTable();
let fake: FakeStepFunctions;
let lockTable: string;

beforeEach(async () => {
  fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  lockTable = await emulated.db.createTable('LockTable');
});
afterEach(() => sfn.reset());

const lock = () => new DynamoDbJobLock(emulated.db.client, lockTable);

/** Runs `verb` on `target` with both tables' variables set. */
async function control(verb: ControlVerb, args: string[], env: NodeJS.ProcessEnv = {}) {
  const tty = fakeTerminal();
  tty.streams.stdin.isTTY = false;
  const exitCode = await runControlCommand(verb, args, {
    ...tty.streams,
    env: {
      NOMAD_RESTART_LOCK_TABLE: lockTable,
      NOMAD_RESTART_APPROVALS_TABLE: emulated.table,
      ...env,
    },
    awsClients: { dynamodb: emulated.db.client },
  });
  return { exitCode, stdout: tty.output().replace(tty.stderr(), ''), stderr: tty.stderr() };
}

/** The run `RUN` restarting `web`, holding its lock. */
async function runningWeb(): Promise<void> {
  fake.addExecution(RUN, { job: 'web', yes: true });
  await lock().acquire(KEY, { owner: RUN, ttlSeconds: 3600 });
}

/** The pause question the ask step parks for run `runId`, asked by its execution `executionId`. */
const pauseQuestion = (executionId: string, taskToken: string, runId = executionId) =>
  parkedOn(executionId, taskToken, { runId, jobId: 'web', kind: 'pause', prompt: PAUSE_PROMPT });

const answers = () => fake.received('SendTaskSuccess').map((i) => JSON.parse(String(i['output'])));

describe('nomad-restart pause|resume|stop <execution ARN>', () => {
  it('records a pause on the lock of the job the run holds, attributed, named by a continued execution', async () => {
    // Arrange: the run has continued as new; the operator copies its second execution's ARN.
    await runningWeb();
    const second = execArn(continuationExecutionName(RUN, 'web', 2));
    fake.addExecution(second, { continuation: { run: { runId: RUN, executionNumber: 2 } } });

    // Act
    const out = await control('pause', [second]);

    // Assert
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(
      `Pause requested by ${operatorName()} for the restart of job "web" in namespace "default" (run "${RUN}"): ` +
        'it pauses before its next batch and asks whether to resume\n',
    );
    expect(await lock().controlRequest(KEY, RUN)).toEqual({
      verb: 'pause',
      requestedBy: operatorName(),
      via: 'terminal',
      at: expect.any(Number),
    });
  });

  it('records a stop for a running run', async () => {
    // Arrange
    await runningWeb();

    // Act
    const out = await control('stop', [RUN]);

    // Assert
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('it stops before its next batch, canceled as after a "no"');
    expect((await lock().controlRequest(KEY, RUN))?.verb).toBe('stop');
  });

  it.each([
    { verb: 'resume' as const, answer: 'yes' },
    { verb: 'stop' as const, answer: 'no' },
  ])(
    'answers the pause question a parked run waits on with $verb ($answer), once',
    async ({ verb, answer }) => {
      // Arrange
      await runningWeb();
      await lock().requestControl(KEY, RUN, { verb: 'pause', requestedBy: 'U0AAAAAAA', via: 'slack', at: 1 });
      const question = pauseQuestion(RUN, 'pause-token');
      await emulated.store.put(question);

      // Act
      const out = await control(verb, [RUN]);

      // Assert
      expect(out.stderr).toBe('');
      expect(out.exitCode).toBe(0);
      expect(out.stdout).toMatch(
        new RegExp(
          `^Pause question "${question.approvalId}" \\(job "web" in namespace "default"\\): ${operatorName()} answered "${answer}" at .* \\(terminal\\)\\.\\n$`,
        ),
      );
      expect(fake.received('SendTaskSuccess').map((i) => i['taskToken'])).toEqual(['pause-token']);
      expect(answers()).toEqual([expect.objectContaining({ answer })]);
      expect((await emulated.store.get(question.approvalId)).decision).toMatchObject({
        answer,
        answeredBy: operatorName(),
        via: 'terminal',
      });
    },
  );

  it('answers the pause question a continued execution of the run parked, named by the first execution', async () => {
    // Arrange: the run continued as new, and its second execution parked on the pause question.
    await runningWeb();
    const second = execArn(continuationExecutionName(RUN, 'web', 2));
    const question = pauseQuestion(second, 'second-token', RUN);
    await emulated.store.put(question);

    // Act
    const out = await control('resume', [RUN]);

    // Assert
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(fake.received('SendTaskSuccess').map((i) => i['taskToken'])).toEqual(['second-token']);
    expect((await emulated.store.get(question.approvalId)).decision).toMatchObject({ answer: 'yes' });
  });

  it('withdraws a pause the run has not reached yet on resume', async () => {
    // Arrange
    await runningWeb();
    await lock().requestControl(KEY, RUN, { verb: 'pause', requestedBy: 'bob@desk', via: 'terminal', at: 5 });

    // Act
    const out = await control('resume', [RUN]);

    // Assert
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain('before the run reached it: it goes on');
    expect(await lock().controlRequest(KEY, RUN)).toBeUndefined();
    expect(answers()).toEqual([]);
  });

  it('refuses a resume with nothing paused, and ignores a pause question of another run of the job', async () => {
    // Arrange: an earlier run of the same job left a question behind.
    await runningWeb();
    await emulated.store.put(pauseQuestion(execArn('web-run-0'), 'old-token'));

    // Act
    const out = await control('resume', [RUN]);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      'The restart of job "web" in namespace "default" is not paused: there is nothing to resume\n',
    );
    expect(answers()).toEqual([]);
    expect(await lock().controlRequest(KEY, RUN)).toBeUndefined();
  });

  it('refuses a pause of a run already parked on its pause question', async () => {
    // Arrange
    await runningWeb();
    const question = pauseQuestion(RUN, 'pause-token');
    await emulated.store.put(question);

    // Act
    const out = await control('pause', [RUN]);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      `The restart of job "web" in namespace "default" is already paused: its question "${question.approvalId}" waits for an answer (resume or stop it)\n`,
    );
    expect(await lock().controlRequest(KEY, RUN)).toBeUndefined();
  });

  it.each([
    {
      name: 'a run that has ended (its lock released)',
      args: [RUN],
      setUp: async () => {
        fake.addExecution(RUN, { job: 'web' });
      },
      expectedErr: `The restart of execution "${RUN}" is not running: its run holds no job lock (it has ended, or has not locked its job yet)\n`,
    },
    {
      name: 'an execution that does not exist',
      args: [execArn('nope')],
      setUp: async () => undefined,
      expectedErr: `Execution "${execArn('nope')}" does not exist\n`,
    },
    {
      name: 'a malformed ARN',
      args: ['arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart'],
      setUp: async () => undefined,
      expectedErr:
        'Invalid execution ARN "arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart": ' +
        "expected arn:<partition>:states:<region>:<account>:execution:<state machine>:<name>\nFor additional help try 'nomad-restart stop -help'\n",
    },
    {
      name: 'Nomad options beside an ARN',
      args: ['-namespace', 'prod', RUN],
      setUp: runningWeb,
      expectedErr:
        "The -namespace option cannot be used with an execution ARN: the request goes through the stack's tables, " +
        "and the execution names its job\nFor additional help try 'nomad-restart stop -help'\n",
    },
  ])('refuses $name with one line and exit 1, writing nothing', async ({ args, setUp, expectedErr }) => {
    // Arrange
    await setUp();

    // Act
    const out = await control('stop', args);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(expectedErr);
    expect(await lock().controlRequest(KEY, RUN)).toBeUndefined();
    expect(answers()).toEqual([]);
  });

  it('takes the job form of an AWS run the execution way when the lock table is known', async () => {
    // Arrange: the run holds `web` in Nomad too (its shared lock names it, engine aws).
    await runningWeb();
    const sim = await startSimulator({
      scenario: { nodes: [{ name: 'n1' }], jobs: [simpleJob('web', 'service', 1)], acl: readmePolicyAcl() },
    });
    try {
      const nomad = NomadClient.create({ address: sim.address, token: OPERATOR_TOKEN });
      await new NomadVariablesLock(nomad, { identity: awsLockIdentity({}), ttl: AWS_SHARED_LOCK_TTL }).take(
        KEY,
        RUN,
        'lock-id-1',
      );
      await nomad.close();

      // Act
      const out = await control('pause', ['web'], { NOMAD_ADDR: sim.address, NOMAD_TOKEN: OPERATOR_TOKEN });

      // Assert: recorded on the lock item, where the run's guard reads it; nothing in Nomad.
      expect(out.exitCode).toBe(0);
      expect(out.stdout).toContain(`(run "${RUN}"): it pauses before its next batch`);
      expect((await lock().controlRequest(KEY, RUN))?.verb).toBe('pause');
      expect(sim.control.state().variable('default', controlRequestPath('web'))).toBeUndefined();
    } finally {
      await sim.close();
    }
  });

  it('names the IAM action AWS denies, in one line, exit 1', async () => {
    // Arrange: the operator may read the tables but not write them.
    await runningWeb();
    const denying = emulated.db.newClient();
    denying.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'UpdateItemCommand')
          throw Object.assign(new Error('User: ops is not authorized to perform: dynamodb:UpdateItem'), {
            name: 'AccessDeniedException',
            $fault: 'client',
            $metadata: { httpStatusCode: 400 },
          });
        return next(args);
      },
      { step: 'initialize', name: 'denyUpdateItem' },
    );
    const tty = fakeTerminal();

    // Act
    const code = await runControlCommand('pause', [RUN], {
      ...tty.streams,
      env: { NOMAD_RESTART_LOCK_TABLE: lockTable, NOMAD_RESTART_APPROVALS_TABLE: emulated.table },
      awsClients: { dynamodb: denying },
    });

    // Assert
    expect(code).toBe(1);
    expect(tty.stderr()).toBe(
      'Error recording a pause request on the lock of job "web": AccessDeniedException: ' +
        'User: ops is not authorized to perform: dynamodb:UpdateItem; this needs the IAM action dynamodb:UpdateItem\n',
    );
    expect(await lock().controlRequest(KEY, RUN)).toBeUndefined();
  });

  it('needs the approvals table for a resume, said before any call', async () => {
    // Arrange
    await runningWeb();

    // Act
    const out = await control('resume', [RUN], { NOMAD_RESTART_APPROVALS_TABLE: '' });

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toContain('set NOMAD_RESTART_APPROVALS_TABLE to the approvals table');
    expect(fake.calls).toEqual([]);
  });
});
