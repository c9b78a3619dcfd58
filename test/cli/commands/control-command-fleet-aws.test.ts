/**
 * Scenario: `nomad-restart pause|resume|stop <fleet execution ARN>` in-process, against the lock
 * and approvals tables on a DynamoDB emulator and a faked Step Functions holding the fleet's
 * execution (its start input is a fleet's). The request is recorded on the fleet's item, where
 * each job's safe point reads it; `resume` takes the fleet's pause back and answers yes to every
 * job of the fleet parked on its pause question, `stop` answers no, each once. A question of
 * another fleet's job is left alone. An ended fleet and a resume with nothing paused each get one
 * clear line and exit 1.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { runControlCommand } from '../../../lib/cli/commands/control-command';
import { operatorName } from '../../../lib/cli/terminal/operator';
import type { ControlVerb } from '../../../lib/control/requests';
import { executionName } from '../../../lib/fleet/execution-name';
import { toFleetInput, validateFleetInput } from '../../../lib/fleet/input';
import { holdFleetControl, releaseFleetControl } from '../../../lib/steps/fleet/fleet-control-item';
import { fleetControlRequest } from '../../../lib/steps/lock/fleet-control-step';
import { DynamoDbJobLock } from '../../../lib/stores';
import { fleetControlKey } from '../../../lib/stores/fleet-control-key';
import { PairedJobLock } from '../../../lib/stores/paired-job-lock';
import { emulatedApprovalsTable, parkedOn } from '../../engines/aws/helpers/chat-fixtures';
import { FakeStepFunctions } from '../../engines/aws/helpers/fake-step-functions';
import { execArn, fakeTerminal } from '../../engines/aws/helpers/fixtures';
import { bindToSdkMock } from '../../engines/aws/helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const FLEET_RUN = 'weekly-payments';
const FLEET = execArn(FLEET_RUN).replace(':NomadRestart-Restart:', ':NomadRestart-Fleet:');
const FLEET_INPUT = toFleetInput(
  validateFleetInput({ namespace: 'payments', maxJobs: 2, yes: true }, { interactive: false }),
  'ops@laptop',
);
/** The one-job run the fleet started for `job` (lib/fleet/execution-name.ts). */
const childRun = (job: string, fleetRunId = FLEET_RUN) => execArn(executionName(fleetRunId, 'payments', job));
const PAUSE_PROMPT = 'Paused by ops@laptop (terminal).\nResume the restart? [y/N]';

const emulated = emulatedApprovalsTable();
let fake: FakeStepFunctions;
let lockTable: string;

beforeEach(async () => {
  fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  lockTable = await emulated.db.createTable('LockTable');
  fake.addExecution(FLEET, FLEET_INPUT);
});
afterEach(() => sfn.reset());

const lock = () => new DynamoDbJobLock(emulated.db.client, lockTable);

/** Runs `verb` on the fleet's execution with both tables' variables set. */
async function control(verb: ControlVerb) {
  const tty = fakeTerminal();
  tty.streams.stdin.isTTY = false;
  const exitCode = await runControlCommand(verb, [FLEET], {
    ...tty.streams,
    env: { NOMAD_RESTART_LOCK_TABLE: lockTable, NOMAD_RESTART_APPROVALS_TABLE: emulated.table },
    awsClients: { dynamodb: emulated.db.client },
  });
  return { exitCode, stdout: tty.output().replace(tty.stderr(), ''), stderr: tty.stderr() };
}

/** What a job of the fleet reads at its safe point ("Check deployments"). */
const readAtSafePoint = () =>
  fleetControlRequest(new PairedJobLock(lock(), undefined, { required: false }), {
    fleet: { runId: FLEET_RUN, index: 1, of: 2 },
  });

/** Job `job` of the fleet, running and parked on its pause question. */
async function parkedJob(job: string, fleetRunId = FLEET_RUN) {
  const runId = childRun(job, fleetRunId);
  await lock().acquire({ namespace: 'payments', jobId: job }, { owner: runId, ttlSeconds: 3600 });
  const question = parkedOn(runId, `${job}-token`, {
    runId,
    jobId: job,
    namespace: 'payments',
    kind: 'pause',
    prompt: PAUSE_PROMPT,
  });
  await emulated.store.put(question);
  return question;
}

const answers = () => fake.received('SendTaskSuccess').map((i) => JSON.parse(String(i['output'])));

describe('nomad-restart pause|resume|stop <fleet execution ARN>', () => {
  it("records the fleet's pause on its item, where each job's safe point reads it", async () => {
    // Arrange: Plan fleet took the fleet's item.
    await holdFleetControl(lock(), FLEET_RUN);

    // Act
    const out = await control('pause');

    // Assert
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(
      `Pause requested by ${operatorName()} for fleet run "${FLEET_RUN}": ` +
        'each of its jobs pauses before its next batch and asks whether to resume\n',
    );
    expect(await readAtSafePoint()).toEqual({
      verb: 'pause',
      requestedBy: operatorName(),
      via: 'terminal',
      at: expect.any(Number),
    });
  });

  it("takes the fleet's pause back on resume and answers yes to each parked job of the fleet, once", async () => {
    // Arrange: the fleet was paused; two of its jobs parked; a job of another fleet parked too.
    await holdFleetControl(lock(), FLEET_RUN);
    await lock().requestControl(fleetControlKey(FLEET_RUN), FLEET_RUN, {
      verb: 'pause',
      requestedBy: 'U0AAAAAAA',
      via: 'slack',
      at: 1,
    });
    const web = await parkedJob('web');
    const api = await parkedJob('api');
    const other = await parkedJob('batch', 'another-fleet');

    // Act
    const out = await control('resume');

    // Assert
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(`Resume requested by ${operatorName()} for fleet run "${FLEET_RUN}"`);
    expect(out.stdout).toContain(`Pause question "${web.approvalId}" (job "web" in namespace "payments")`);
    expect(await readAtSafePoint()).toBeUndefined();
    expect(
      fake
        .received('SendTaskSuccess')
        .map((i) => i['taskToken'])
        .sort(),
    ).toEqual(['api-token', 'web-token']);
    expect(answers()).toEqual([
      expect.objectContaining({ answer: 'yes' }),
      expect.objectContaining({ answer: 'yes' }),
    ]);
    expect((await emulated.store.get(api.approvalId)).decision).toMatchObject({
      answer: 'yes',
      via: 'terminal',
    });
    expect((await emulated.store.get(other.approvalId)).decision).toBeUndefined();
  });

  it("records the fleet's stop and answers no to each parked job", async () => {
    // Arrange
    await holdFleetControl(lock(), FLEET_RUN);
    const web = await parkedJob('web');

    // Act
    const out = await control('stop');

    // Assert
    expect(out.exitCode).toBe(0);
    expect((await readAtSafePoint())?.verb).toBe('stop');
    expect(fake.received('SendTaskSuccess').map((i) => i['taskToken'])).toEqual(['web-token']);
    expect((await emulated.store.get(web.approvalId)).decision).toMatchObject({ answer: 'no' });
  });

  it('refuses a resume of a fleet with nothing paused', async () => {
    // Arrange
    await holdFleetControl(lock(), FLEET_RUN);

    // Act
    const out = await control('resume');

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`The fleet run "${FLEET_RUN}" is not paused: there is nothing to resume\n`);
    expect(answers()).toEqual([]);
  });

  it.each(['pause', 'resume', 'stop'] as const)('refuses a %s of a fleet that has ended', async (verb) => {
    // Arrange: Summarize fleet gave the item back.
    await holdFleetControl(lock(), FLEET_RUN);
    await releaseFleetControl(lock(), FLEET_RUN);

    // Act
    const out = await control(verb);

    // Assert
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(`The fleet run "${FLEET_RUN}" is not running: it has ended\n`);
    expect(await lock().controlRequest(fleetControlKey(FLEET_RUN), FLEET_RUN)).toBeUndefined();
  });
});
