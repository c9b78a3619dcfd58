/**
 * Scenario: each run leaves its record in the job's restart history in Nomad (issue #40), through
 * the synthesized workflow, the local engine and the real handlers, against the simulator with
 * ACLs on and a token holding exactly the README's run policy; the records are read back with the
 * README's reader policy. A run that succeeds shows `running` while it holds the job, then its
 * final record; a run stopped with `stop` ends `canceled`, naming who stopped it; an interrupt
 * confirmed (the failure path, "Release lock after error") ends it `canceled` too; a scheduled
 * AWS execution's run names its engine, its schedule and its execution; a scheduled run skipped
 * because the job is locked leaves its only record; a console input whose reason is not one line
 * ends in InvalidInput before any request; a token that may not write the history gets one
 * warning, and the run goes on.
 */
import type { ControlRequest } from '../../../lib/control/requests';
import type { RunRecord } from '../../../lib/history/record';
import { NomadClient } from '../../../lib/nomad';
import type { ProgressEvent } from '../../../lib/restart/events';
import { NomadRunHistory } from '../../../lib/stores/nomad-run-history';
import { runHistoryPath } from '../../../lib/stores/shared-lock-settings';
import { TaskStates } from '../../../lib/workflow/state-names';
import type { RunningSimulator } from '../../../sim/index';
import { batchClock, SECOND_BATCHES_MS } from '../../engines/local/helpers/batch-clock';
import {
  atSafePoint,
  freeJob,
  holdJob,
  runWorkflow,
  runWorkflowInput,
} from '../../engines/local/helpers/workflow-harness';
import {
  HISTORY_READER_TOKEN,
  MANAGEMENT_TOKEN,
  OPERATOR_TOKEN,
  readmePolicyAcl,
  readmePolicyToken,
} from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob } from '../helpers/harness';

const harness = harnessPerTest();
const clients: NomadClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** Three running allocations of `web`, ACLs on with the README's policies. */
function cluster(): Promise<Harness> {
  return harness.startRunning(
    simpleJob('web', 'service', 3),
    { token: OPERATOR_TOKEN },
    { acl: readmePolicyAcl() },
  );
}

/** `web`'s execution input as the schedule "weekly-web" starts it, firing now. */
const weeklyWebInput = () => ({
  job: 'web',
  yes: true,
  trigger: 'schedule' as const,
  scheduleName: 'weekly-web',
  scheduledTime: new Date().toISOString(),
});

/** `web`'s history as `nomad-restart history` reads it: with the README's reader policy. */
async function historyOf(sim: RunningSimulator): Promise<readonly RunRecord[]> {
  const client = NomadClient.create({ address: sim.address, token: HISTORY_READER_TOKEN });
  clients.push(client);
  return (await new NomadRunHistory(client).read({ namespace: 'default', jobId: 'web' })).records;
}

/** The run-level events of a run, by type. */
const runLevel = (events: readonly ProgressEvent[]) =>
  events.filter((e) => e.type === 'run-started' || e.type === 'run-ended');

describe('the job restart history', () => {
  it('shows a run as running while it holds the job, then its final record', async () => {
    // Arrange: read the history as the first batch starts.
    const h = await cluster();
    let whileRunning: readonly RunRecord[] = [];

    // Act
    const run = await runWorkflow(
      h,
      restartOptions('web', { batchSize: { value: 2, percent: false }, reason: 'INC-4711 rotate certs' }),
      {
        token: OPERATOR_TOKEN,
        interceptInvocation: async (state, invoke) => {
          if (state === TaskStates.restartBatch && whileRunning.length === 0)
            whileRunning = await historyOf(h.sim);
          return invoke();
        },
      },
    );

    // Assert
    expect(run.exitCode).toBe(0);
    expect(whileRunning).toEqual([
      expect.objectContaining({
        outcome: 'running',
        counts: { planned: 3, restarted: 0, failed: 0, skipped: 0, notReached: 3 },
      }),
    ]);
    expect(whileRunning[0]).not.toHaveProperty('endedAt');
    const records = await historyOf(h.sim);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({
      runId: whileRunning[0]?.runId,
      kind: 'job',
      namespace: 'default',
      jobId: 'web',
      engine: 'terminal',
      reason: 'INC-4711 rotate certs',
      options: '-batch-size=2 -yes',
      outcome: 'succeeded',
      counts: { planned: 3, restarted: 3, failed: 0, skipped: 0, notReached: 0 },
      errors: [],
    });
    expect(record?.endedAt).toBeGreaterThanOrEqual(record?.startedAt ?? Number.POSITIVE_INFINITY);
    expect(record).not.toHaveProperty('executionArn');
    expect(runLevel(run.events)).toEqual([
      expect.objectContaining({
        type: 'run-started',
        jobId: 'web',
        planned: 3,
        batches: 2,
        reason: 'INC-4711 rotate certs',
      }),
      expect.objectContaining({ type: 'run-ended', outcome: 'succeeded', counts: record?.counts }),
    ]);
  });

  it('ends a run stopped with stop as canceled, naming who stopped it', async () => {
    // Arrange: `stop` before the second batch's safe point (one allocation per batch, a second
    // apart: the run reads its request at most once a second).
    const h = await cluster();
    const stop: ControlRequest = {
      verb: 'stop',
      requestedBy: 'alice@laptop',
      via: 'terminal',
      at: Date.now(),
    };
    const stopAtSecond = atSafePoint(2, (started) => started.requestControl(stop));

    // Act
    const run = await runWorkflow(h, restartOptions('web'), {
      token: OPERATOR_TOKEN,
      controlPollMs: 50,
      ...stopAtSecond,
      ...batchClock(SECOND_BATCHES_MS, stopAtSecond.interceptInvocation),
    });

    // Assert
    expect(run.exitCode).toBe(0);
    expect(await historyOf(h.sim)).toEqual([
      expect.objectContaining({
        outcome: 'canceled',
        stoppedBy: 'alice@laptop (terminal)',
        counts: { planned: 3, restarted: 1, failed: 0, skipped: 0, notReached: 2 },
      }),
    ]);
  });

  it('ends a run canceled on the failure path (an interrupt confirmed) as canceled', async () => {
    // Arrange: the interrupt is confirmed as the second batch's safe point comes.
    const h = await cluster();

    // Act
    const run = await runWorkflow(h, restartOptions('web'), {
      token: OPERATOR_TOKEN,
      ...atSafePoint(2, (started) => started.requestCancel()),
    });

    // Assert
    expect(run.entered).toContain(TaskStates.releaseLockAfterError);
    const [record] = await historyOf(h.sim);
    expect(record).toMatchObject({ outcome: 'canceled', counts: { restarted: 1, notReached: 2 } });
    expect(record?.endedAt).toBeDefined();
    expect(runLevel(run.events).at(-1)).toMatchObject({ type: 'run-ended', outcome: 'canceled' });
  });

  it("records a scheduled AWS execution's run with its engine, schedule and execution", async () => {
    // Act
    const h = await cluster();
    const run = await runWorkflowInput(h, weeklyWebInput(), { token: OPERATOR_TOKEN, engine: 'aws' });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    const [record] = await historyOf(h.sim);
    expect(record).toMatchObject({
      engine: 'aws',
      startedBy: 'schedule "weekly-web"',
      outcome: 'succeeded',
      executionArn: expect.stringMatching(/^arn:aws:states:/),
    });
    expect(record?.executionArn).toBe(record?.runId);
  });

  it('gives a scheduled run skipped because the job is locked its only record, naming the holder', async () => {
    // Arrange: another run holds the job.
    const h = await cluster();
    const holder = 'arn:aws:states:local:000000000000:execution:NomadRestart-Restart:by-hand';
    await holdJob({ namespace: 'default', jobId: 'web' }, holder);

    // Act
    const run = await runWorkflowInput(h, weeklyWebInput(), { token: OPERATOR_TOKEN }).finally(() =>
      freeJob({ namespace: 'default', jobId: 'web' }, holder),
    );

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    const records = await historyOf(h.sim);
    expect(records).toEqual([
      expect.objectContaining({
        outcome: 'skipped-job-locked',
        startedBy: 'schedule "weekly-web"',
        counts: { planned: 3, restarted: 0, failed: 0, skipped: 0, notReached: 3 },
      }),
    ]);
    expect(records[0]?.errors[0]).toContain(`is already being restarted by execution "${holder}"`);
  });

  it('ends a console input with a reason of two lines in InvalidInput, with nothing written', async () => {
    // Arrange
    const h = await cluster();
    h.sim.control.resetCounters();

    // Act
    const run = await runWorkflowInput(
      h,
      { job: 'web', yes: true, reason: 'INC-1\nINC-2' },
      { token: OPERATOR_TOKEN },
    );

    // Assert
    expect(run.result).toMatchObject({
      status: 'FAILED',
      error: 'InvalidInput',
      cause:
        'Invalid -reason value "INC-1\\nINC-2": must be one line, without control characters (found "\\n")',
    });
    expect(h.sim.control.requestLog()).toEqual([]);
  });

  it('warns once when the token may not write the history, and the run goes on', async () => {
    // Arrange: the README's run policy less the history path.
    const runPolicy = readmePolicyToken(['default']);
    const withoutHistory = {
      ...runPolicy,
      secret: 'no-history-secret',
      variables: {
        default: Object.fromEntries(
          Object.entries(runPolicy.variables?.['default'] ?? {}).filter(
            ([path]) => !path.startsWith('nomad-restart/history'),
          ),
        ),
      },
    };
    const h = await harness.startRunning(
      simpleJob('web', 'service', 3),
      { token: 'no-history-secret' },
      { acl: { enabled: true, tokens: [withoutHistory, { secret: MANAGEMENT_TOKEN, management: true }] } },
    );

    // Act
    const run = await runWorkflow(h, restartOptions('web'), { token: 'no-history-secret' });

    // Assert
    expect(run.exitCode).toBe(0);
    expect(run.events.filter((e) => e.type === 'history-not-recorded')).toEqual([
      expect.objectContaining({
        message:
          'Restart history not recorded: the token needs the variables capabilities "read" and "write" on path "nomad-restart/history/*"',
      }),
    ]);
    expect(h.sim.control.state().variable('default', runHistoryPath('web'))).toBeUndefined();
    expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(3);
  });
});
