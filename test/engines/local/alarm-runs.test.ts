// Scenario: -stop-on-alarm and -bake-time through the synthesized workflow (local engine, real
// handlers) against the simulator with ACLs and a token holding exactly the README's policy, the
// alarms read through the real CloudWatch SDK client from a fake CloudWatch on 127.0.0.1:
// - an alarm switched to ALARM during batch 1's health wait ends that wait and the run before
//   batch 2 (the request log has one restart), with the alarm's name and reason in the summary;
// - an alarm already in ALARM at the safe point before batch 2 stops the run there;
// - -bake-time 2m catches an alarm that fires one minute after the last batch; without an alarm
//   the same bake ends in success after the two minutes;
// - an alarm that does not exist is refused at "Validate input", naming it: no Nomad request, no lock.
// Times: the steps run on the simulator's clock (1 simulated second = 10 real ms), and the bake's
// Wait state (30 s in the definition) takes 300 real ms: 30 simulated seconds, the same logic.

import type { RestartOptions } from '../../../lib/restart/options';
import { FlowStates, TaskStates } from '../../../lib/workflow/state-names';
import { type ServedCloudWatch, startFakeCloudWatch } from '../../alarms/helpers/fake-cloudwatch';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { checkedJob } from '../../steps/health/helpers/health-fixtures';
import { eventsOf, type Harness, startHarness, waitAllRunning } from '../../steps/helpers/harness';
import { runWorkflow, type WorkflowRun, type WorkflowRunOptions } from './helpers/workflow-harness';

const RESTART = /^\/v1\/client\/allocation\/([^/]+)\/restart$/;
/** The bake's Wait: 30 simulated seconds on the simulator's scaled clock. */
const BAKE_WAIT_REAL_MS = 300;
const REASON =
  'Threshold Crossed: 1 out of the last 1 datapoints [12.0] was greater than the threshold (5.0)';

let h: Harness | undefined;
let cloudwatch: ServedCloudWatch | undefined;
afterEach(async () => {
  await h?.close();
  await cloudwatch?.close();
  h = undefined;
  cloudwatch = undefined;
});

/** A job of `count` allocations, running, on a simulator with the README's policy, and the fake CloudWatch. */
async function setUp(count: number): Promise<{ target: Harness; cw: ServedCloudWatch }> {
  const job = checkedJob('api', count);
  h = await startHarness({ jobs: [job], acl: readmePolicyAcl() }, { token: OPERATOR_TOKEN });
  await waitAllRunning(h, job.ID, count);
  cloudwatch = await startFakeCloudWatch();
  cloudwatch.fake.set('api-5xx', 'OK', 'Threshold Crossed: no datapoint above 5.0');
  return { target: h, cw: cloudwatch };
}

function run(
  target: Harness,
  cw: ServedCloudWatch,
  options: RestartOptions,
  extra: WorkflowRunOptions = {},
): Promise<WorkflowRun> {
  return runWorkflow(target, options, {
    token: OPERATOR_TOKEN,
    now: target.now,
    sleep: target.sleep,
    alarms: cw.reader,
    bakeWaitMs: BAKE_WAIT_REAL_MS,
    ...extra,
  });
}

/** The summary "Finish restart" wrote (a failed run's is also its `RestartFailed` cause). */
function summaryOf(result: WorkflowRun): unknown {
  const finish = result.exits.find((e) => e.name === TaskStates.finish);
  return (finish?.output as { summary?: unknown } | undefined)?.summary;
}

function restarts(target: Harness): number {
  return target.sim.control.requestLog().filter((r) => RESTART.test(r.path) && r.status === 200).length;
}

const gate = { minHealthyTimeNs: 60e9, healthyDeadlineNs: 600e9 };

describe('-stop-on-alarm through the workflow', () => {
  it('ends the health wait and the run before the next batch when an alarm fires during the wait', async () => {
    // Arrange: 3 batches of 1; the alarm fires 5 simulated seconds into batch 1's health wait,
    // long before its 60 s -min-healthy-time is over.
    const { target, cw } = await setUp(3);
    let switched = false;
    const options = restartOptions('api', { waitHealthy: gate, stopOnAlarms: ['api-5xx'] });

    // Act
    const result = await run(target, cw, options, {
      interceptInvocation: async (state, invoke) => {
        if (state === TaskStates.awaitHealth && !switched) {
          switched = true;
          void target.sleep(5_000, new AbortController().signal).then(() => {
            cw.fake.set('api-5xx', 'ALARM', REASON, target.now());
          });
        }
        return invoke();
      },
    });

    // Assert
    expect(result.exitCode).toBe(1);
    expect(restarts(target)).toBe(1);
    const [fired] = eventsOf(result.events, 'alarm-fired');
    expect(fired?.alarm).toMatchObject({ name: 'api-5xx', reason: REASON });
    // The wait was cut short: nobody was judged healthy, and it did not run to -min-healthy-time.
    expect(eventsOf(result.events, 'allocation-healthy')).toEqual([]);
    const waiting = eventsOf(result.events, 'health-waiting')[0];
    expect((fired?.time ?? Infinity) - (waiting?.time ?? 0)).toBeLessThan(60_000);
    expect(result.errors).toEqual([
      expect.stringMatching(/^Alarm "api-5xx" is in ALARM since .*: Threshold Crossed: 1 out of/),
    ]);
    expect(result.result.error).toBe('RestartFailed');
    expect(result.result.cause).toContain(REASON);
    expect(summaryOf(result)).toMatchObject({
      outcome: 'failed',
      allocations: { restarted: 1 },
      errorText: expect.stringContaining(REASON),
    });
    expect(result.entered.filter((s) => s === TaskStates.restartBatch)).toHaveLength(1);
  });

  it('stops at the safe point before the next batch when an alarm is in ALARM there', async () => {
    // Arrange: the alarm fires while "Decide" closes batch 1 (no health wait to watch it).
    const { target, cw } = await setUp(3);
    let decided = 0;
    const options = restartOptions('api', { stopOnAlarms: ['api-5xx'] });

    // Act
    const result = await run(target, cw, options, {
      interceptInvocation: async (state, invoke) => {
        const out = await invoke();
        if (state === TaskStates.decide && ++decided === 1)
          cw.fake.set('api-5xx', 'ALARM', REASON, target.now());
        return out;
      },
    });

    // Assert
    expect(result.exitCode).toBe(1);
    expect(restarts(target)).toBe(1);
    expect(eventsOf(result.events, 'alarm-fired')).toHaveLength(1);
    expect(result.errors[0]).toContain(`Alarm "api-5xx" is in ALARM since`);
    expect(result.result.error).toBe('RestartFailed');
    expect(summaryOf(result)).toMatchObject({
      outcome: 'failed',
      errorText: expect.stringContaining(REASON),
    });
  });

  it('refuses an alarm that does not exist at "Validate input", naming it, before Nomad is called or the lock taken', async () => {
    // Arrange: the console's input (as -engine=aws and a schedule start it), no terminal check before.
    const { target, cw } = await setUp(2);
    target.sim.control.resetCounters();
    const options = restartOptions('api', { stopOnAlarms: ['api-5xx', 'api-typo'] });

    // Act
    const result = await run(target, cw, options);

    // Assert
    expect(result.exitCode).toBe(1);
    expect(result.result).toMatchObject({ status: 'FAILED', error: 'InvalidInput' });
    expect(result.result.cause).toMatch(/^Alarm "api-typo" of -stop-on-alarm does not exist/);
    expect(cw.fake.calls).toEqual([['api-5xx', 'api-typo']]);
    expect(target.sim.control.requestLog()).toEqual([]);
    expect(result.entered).not.toContain(TaskStates.lockJob);
    expect(result.entered).not.toContain(TaskStates.plan);
  });
});

describe('-bake-time through the workflow', () => {
  it('catches an alarm that fires one minute after the last batch of a 2m bake', async () => {
    // Arrange
    const { target, cw } = await setUp(2);
    const options = restartOptions('api', { stopOnAlarms: ['api-5xx'], bakeTimeMs: 120_000 });
    let firedAt: number | undefined;

    // Act
    const result = await run(target, cw, options, {
      interceptInvocation: async (state, invoke) => {
        const out = await invoke();
        const action = (out as { decision?: { action?: string } } | undefined)?.decision?.action;
        if (state === TaskStates.decide && action === 'bake' && firedAt === undefined) {
          firedAt = target.now() + 60_000;
          void target.sleep(60_000, new AbortController().signal).then(() => {
            cw.fake.set('api-5xx', 'ALARM', REASON, target.now());
          });
        }
        return out;
      },
    });

    // Assert
    expect(result.exitCode).toBe(1);
    expect(restarts(target)).toBe(2);
    const [baking] = eventsOf(result.events, 'baking');
    const [fired] = eventsOf(result.events, 'alarm-fired');
    expect(baking).toMatchObject({ alarms: ['api-5xx'] });
    expect(baking?.until).toBe((baking?.time ?? 0) + 120_000);
    expect(fired?.time).toBeGreaterThanOrEqual(firedAt ?? Infinity);
    expect(fired?.time).toBeLessThan(baking?.until ?? 0);
    expect(result.result.error).toBe('RestartFailed');
    expect(summaryOf(result)).toMatchObject({ outcome: 'failed', allocations: { restarted: 2 } });
    expect(result.errors[0]).toContain('Alarm "api-5xx" is in ALARM since');
  });

  it('succeeds once the bake is over when no alarm fires', async () => {
    // Arrange
    const { target, cw } = await setUp(2);
    const options = restartOptions('api', { stopOnAlarms: ['api-5xx'], bakeTimeMs: 120_000 });

    // Act
    const result = await run(target, cw, options);

    // Assert
    expect(result.exitCode).toBe(0);
    expect(result.result.output).toMatchObject({ outcome: 'succeeded' });
    const [baking] = eventsOf(result.events, 'baking');
    const finished = eventsOf(result.events, 'finished')[0];
    expect(finished?.time).toBeGreaterThanOrEqual(baking?.until ?? Infinity);
    // A check after each 30 s wait: 4 in 2 minutes (the state entered per check).
    expect(result.entered.filter((s) => s === FlowStates.waitWhileBaking)).toHaveLength(4);
  });
});
