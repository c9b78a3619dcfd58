/**
 * Scenario: the freshness report of a run with `startedBefore` (issue #38), ACLs on with the
 * README's policy. A service job "web" of 3 running allocations, all started before the time; the
 * synthesized workflow restarts it through the local engine with `-yes`. "Finish restart" lists the
 * job's allocations once more and reports: every allocation fresh (the last line says so), or one
 * whose restarted task crashed as it started (Nomad accepted the restart; only the re-read shows
 * the allocation failed) named as still stale, exit 1; or one whose restart Nomad refused. A run
 * without the time reads nothing more.
 */

import { createFormatter } from '../../../lib/restart/format';
import type { RestartOptions } from '../../../lib/restart/options';
import type { RunSummary } from '../../../lib/restart/run-summary';
import { formatTimestamp } from '../../../lib/restart/text';
import { TaskStates } from '../../../lib/workflow/state-names';
import { createScaledClock } from '../../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import {
  allocationsOf,
  eventsOf,
  type Harness,
  harnessPerTest,
  refuseFirstRestart,
  simpleJob,
  waitAllRunning,
} from '../../steps/helpers/harness';
import { runWorkflow, type WorkflowRun } from './helpers/workflow-harness';

const JOB_ALLOCATIONS = '/v1/job/web/allocations';
const harness = harnessPerTest();

/** `web`: 3 running allocations whose task fails for good when it crashes (no restart attempts). */
async function cluster(): Promise<Harness> {
  const job = simpleJob('web', 'service', 3);
  const [group] = job.TaskGroups ?? [];
  if (group !== undefined) group.RestartPolicy = { Attempts: 0, Interval: 1800e9, Delay: 1e9, Mode: 'fail' };
  // On the wall clock: "Validate input" resolves the time against the execution's start, and a
  // time ahead of it (as a faster simulated clock's would be) is refused.
  const h = await harness.start(
    { jobs: [job], acl: readmePolicyAcl() },
    { token: OPERATOR_TOKEN, clock: createScaledClock(1) },
  );
  await waitAllRunning(h, 'web', 3);
  // Past the last start's millisecond, so a time taken now is after every start.
  await new Promise((resolve) => setTimeout(resolve, 2));
  return h;
}

/** Runs `over` on `web` with the operator's token; counts the job's allocation reads "Finish restart" made. */
async function run(
  h: Harness,
  over: Partial<RestartOptions>,
): Promise<WorkflowRun & { finishReads: number }> {
  let finishReads = 0;
  const result = await runWorkflow(h, restartOptions('web', over), {
    token: OPERATOR_TOKEN,
    interceptInvocation: async (state, invoke) => {
      if (state !== TaskStates.finish) return invoke();
      const before = h.sim.control.requestLog().length;
      const out = await invoke();
      finishReads = h.sim.control
        .requestLog()
        .slice(before)
        .filter((entry) => entry.method === 'GET' && entry.path === JOB_ALLOCATIONS).length;
      return out;
    },
  });
  return { ...result, finishReads };
}

/** The lines the run printed (UTC timestamps, short IDs). */
function printed(r: WorkflowRun): string[] {
  const formatter = createFormatter({ verbose: false, color: false, timeZone: 'UTC' });
  return r.events.flatMap((event) => formatter.render(event)).map((line) => line.text);
}

const ts = (ms: number) => formatTimestamp(ms, 'UTC');

describe('the freshness report of a run with startedBefore', () => {
  it('says every allocation in scope started after the time once the re-read shows it, and exits 0', async () => {
    // Arrange
    const h = await cluster();
    const startedBefore = Date.now();

    // Act
    const r = await run(h, { startedBefore });

    // Assert
    const [freshness] = eventsOf(r.events, 'freshness');
    expect(freshness?.report).toEqual({
      namespace: 'default',
      jobId: 'web',
      startedBefore,
      checked: 3,
      restarted: 3,
      alreadyFresh: 0,
      stale: [],
    });
    expect(r.finishReads).toBe(1);
    expect(r.exitCode).toBe(0);
    expect(printed(r).slice(-2)).toEqual([
      expect.stringMatching(
        /^==> .*: Freshness: 3 allocations checked, 3 restarted, 0 already fresh, 0 still stale$/,
      ),
      `Every allocation in scope started after ${ts(startedBefore)}`,
    ]);
    // What the report claims, as the simulator holds it.
    for (const alloc of allocationsOf(h, 'web')) {
      expect(Date.parse(alloc.TaskStates?.['task1']?.StartedAt ?? '')).toBeGreaterThanOrEqual(startedBefore);
    }
    expect((r.result.output as RunSummary).freshness).toMatchObject({ checked: 3, restarted: 3, stale: [] });
  });

  it('names an allocation whose restarted task crashed as still stale, and exits 1', async () => {
    // Arrange: Nomad accepts the restart of every allocation; one task dies as it starts again.
    const h = await cluster();
    const startedBefore = Date.now();
    const [crashing] = allocationsOf(h, 'web');
    const id = crashing?.ID ?? '';
    h.sim.control.crashOnStart({ allocationId: id }, { exitCode: 3 });

    // Act
    const r = await run(h, { startedBefore });

    // Assert
    const [freshness] = eventsOf(r.events, 'freshness');
    expect(freshness?.report).toMatchObject({
      checked: 3,
      restarted: 2,
      stale: [{ allocationId: id, why: 'failed' }],
    });
    expect(r.errors).toEqual([]);
    expect(r.exitCode).toBe(1);
    const lines = printed(r);
    expect(lines).toContain('\nJob restarted successfully!');
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^    .*: Allocation "${id.slice(0, 8)}" started before the time given: its restart failed$`,
        ),
      ),
    );
    expect(lines.some((line) => line.startsWith('Every allocation'))).toBe(false);
    const summary = r.result.output as RunSummary;
    expect(summary.lines).toContain(
      'Freshness: 3 allocations checked, 2 restarted, 0 already fresh, 1 still stale',
    );
  });

  it('names an allocation whose restart Nomad refused, and exits 1', async () => {
    // Arrange
    const h = await cluster();
    const startedBefore = Date.now();
    refuseFirstRestart(h, 'Unknown allocation');

    // Act
    const r = await run(h, { startedBefore });

    // Assert
    const [freshness] = eventsOf(r.events, 'freshness');
    const refused = freshness?.report.stale[0]?.allocationId ?? 'none';
    expect(freshness?.report).toMatchObject({ checked: 3, restarted: 2, stale: [{ why: 'failed' }] });
    expect(r.errors).toEqual([
      expect.stringContaining(`Error restarting allocation "${refused.slice(0, 8)}"`),
    ]);
    expect(r.exitCode).toBe(1);
  });

  it('names the allocations of batches a stopped run never reached as not reached', async () => {
    // Arrange: one allocation per batch; Nomad refuses the first restart and -on-error fail stops there.
    const h = await cluster();
    const startedBefore = Date.now();
    refuseFirstRestart(h, 'Unknown allocation');

    // Act
    const r = await run(h, { startedBefore, onError: 'fail' });

    // Assert
    const [freshness] = eventsOf(r.events, 'freshness');
    expect(freshness?.report.restarted).toBe(0);
    expect(freshness?.report.stale.map((s) => s.why)).toEqual(['failed', 'not-reached', 'not-reached']);
    expect(r.exitCode).toBe(1);
  });

  it('counts allocations the plan found fresh, and says every allocation is fresh', async () => {
    // Arrange: one allocation restarts after the time, before the run.
    const h = await cluster();
    const startedBefore = Date.now();
    const [restartedFirst] = allocationsOf(h, 'web');
    await h.client.allocations().restart(restartedFirst?.ID ?? '', {});
    await h.sim.control.waitFor(
      (state) =>
        state
          .allocations({ jobId: 'web' })
          .some((a) => Date.parse(a.TaskStates?.['task1']?.StartedAt ?? '') >= startedBefore),
      5_000,
    );

    // Act
    const r = await run(h, { startedBefore });

    // Assert
    const [freshness] = eventsOf(r.events, 'freshness');
    expect(freshness?.report).toMatchObject({ checked: 3, restarted: 2, alreadyFresh: 1, stale: [] });
    expect(printed(r)).toContain(`Every allocation in scope started after ${ts(startedBefore)}`);
    expect(r.exitCode).toBe(0);
  });

  it('reads nothing more and reports nothing without the time', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const r = await run(h, {});

    // Assert
    expect(eventsOf(r.events, 'freshness')).toEqual([]);
    expect(r.finishReads).toBe(0);
    expect((r.result.output as RunSummary).freshness).toBeNull();
    expect(r.exitCode).toBe(0);
  });
});
