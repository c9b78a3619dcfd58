/**
 * Scenario: a fleet through the synthesized fleet state machine and the local engine, each job a
 * run of the synthesized one-job state machine (real handlers) against the simulator. "Plan
 * fleet" and "Summarize fleet" are stood in for here (the item list and a minimal summary), so
 * what is checked is the engine's part: the Distributed Map's limits over real jobs, each child a
 * real one-job run, the events tagged with their job, a locked job told apart, the results as
 * the summary will read them, and a cancel.
 */

import type { InvocationInterceptor } from '../../../lib/engines/local/engine';
import {
  type FleetRunResult,
  type LocalFleet,
  type LocalFleetRequest,
  runFleetLocally,
} from '../../../lib/engines/local/fleet-engine';
import { type LocalDefinitions, loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import { type FleetJobItem, fleetKeys } from '../../../lib/fleet/items';
import { type RestartInput, toRestartInput } from '../../../lib/restart/input';
import { localStores } from '../../../lib/stores/from-env';
import { type FleetState, FleetTaskStates } from '../../../lib/workflow/fleet-state-names';
import { FlowStates, TASK_STATE_HANDLERS } from '../../../lib/workflow/state-names';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../../steps/helpers/harness';
import { freeJob, holdJob } from './helpers/workflow-harness';

const JOBS = ['api', 'cache', 'db', 'web', 'worker'];

let stateMachines: LocalDefinitions;
beforeAll(async () => {
  stateMachines = (await loadLocalDefinition()).stateMachine;
});

/** The jobs of the fleet, in order, as "Plan fleet" writes them. */
function itemsOf(runId: string, jobs: readonly string[]): FleetJobItem[] {
  return jobs.map((job, i) => ({
    input: { job, namespace: 'default', fleet: { runId, index: i + 1, of: jobs.length } },
    executionName: `${runId}-${job}`,
    allocations: 2,
  }));
}

/**
 * Stands in for the fleet's own handlers: "Plan fleet" writes the item list to the plan store and
 * returns the fleet's state; "Summarize fleet" returns a summary that ends the run.
 */
function fleetSteps(
  runId: string,
  jobs: readonly string[],
  budget: FleetState['budget'],
): InvocationInterceptor {
  return async (stateName, invoke) => {
    const keys = fleetKeys(runId);
    if (stateName === FleetTaskStates.planFleet) {
      await localStores.planStore.put(keys.items, itemsOf(runId, jobs));
      await localStores.planStore.put(keys.skipped, [
        { namespace: 'default', job: 'nightly', reason: { kind: 'periodic' } },
      ]);
      const { job: _job, ...jobOptions } = toRestartInput(restartOptions('unused')) as Omit<
        RestartInput,
        'scope'
      >;
      const state: FleetState = {
        run: { runId, startedAt: Date.now() },
        plan: {
          itemsKey: keys.items,
          skippedKey: keys.skipped,
          resultsPrefix: keys.results,
          jobs: jobs.length,
          allocations: jobs.length * 2,
          skipped: 1,
          namespaces: ['default'],
        },
        budget,
        jobOptions,
        dryRun: false,
      };
      return state;
    }
    if (stateName === FleetTaskStates.summarizeFleet) {
      const text = 'Fleet restart finished: 0 jobs restarted, 0 failed, 0 skipped';
      return {
        outcome: 'finished',
        restarted: 0,
        failed: 0,
        skipped: 0,
        problems: [],
        omittedProblems: 0,
        lines: [text],
        text,
      };
    }
    return invoke();
  };
}

/** Starts a fleet of {@link JOBS} against `h`'s simulator; `extra` overrides the request. */
async function startFleet(
  h: Harness,
  runId: string,
  budget: FleetState['budget'],
  extra: Partial<LocalFleetRequest> = {},
): Promise<LocalFleet> {
  return runFleetLocally({
    input: { namespace: 'default', filter: 'Type == "service"' },
    executionName: runId,
    stateMachines,
    nomad: { address: h.sim.address },
    emit: () => {},
    prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
    interceptInvocation: fleetSteps(runId, JOBS, budget),
    waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STATE_HANDLERS).map((name) => [name, 0])),
    now: h.now,
    sleep: h.sleep,
    ...extra,
  });
}

/** Runs {@link startFleet} to its end, with the events it emitted. */
async function runFleet(
  h: Harness,
  runId: string,
  budget: FleetState['budget'],
): Promise<{ result: FleetRunResult; events: FleetProgressEvent[] }> {
  const events: FleetProgressEvent[] = [];
  const fleet = await startFleet(h, runId, budget, { emit: (event) => events.push(event) });
  return { result: await fleet.result, events };
}

/** Most jobs between their `job-started` and `job-finished` at once. */
function maxJobsInFlight(events: readonly FleetProgressEvent[]): number {
  let inFlight = 0;
  let most = 0;
  for (const event of events) {
    if (event.type === 'job-started') most = Math.max(most, ++inFlight);
    if (event.type === 'job-finished') inFlight -= 1;
  }
  return most;
}

describe('runFleetLocally', () => {
  const harness = harnessPerTest();
  const startJobs = async () => {
    const h = await harness.start({ jobs: JOBS.map((id) => simpleJob(id, 'service', 2)) });
    for (const id of JOBS) await waitAllRunning(h, id, 2);
    return h;
  };

  it('restarts every job through the one-job state machine, never more than maxJobs at once and reaching it', async () => {
    // Arrange
    const h = await startJobs();

    // Act
    const { result, events } = await runFleet(h, 'fleet-max-jobs', { maxJobs: 2, maxFailedJobs: 0 });

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(maxJobsInFlight(events)).toBe(2);
    const finished = events.filter((e) => e.type === 'job-finished');
    expect(finished.map((e) => [e.job, e.outcome]).sort()).toEqual(JOBS.map((job) => [job, 'restarted']));
    expect(result.jobs.map((job) => job.status)).toEqual(JOBS.map(() => 'SUCCEEDED'));
    // Each job's own events carry the job they belong to.
    const restarted = events.filter(
      (e) => 'namespace' in e && e.type !== 'job-started' && e.type !== 'job-finished',
    );
    expect(new Set(restarted.map((e) => ('job' in e ? e.job : undefined)))).toEqual(new Set(JOBS));
    expect(events[0]).toMatchObject({ type: 'fleet-planned', jobs: 5, skipped: [{ job: 'nightly' }] });
    expect(events.at(-1)).toMatchObject({ type: 'fleet-finished', withErrors: false });
  });

  it("keeps each job's history out of the fleet's, and writes every job's end where the summary reads it", async () => {
    // Arrange
    const h = await startJobs();

    // Act
    const { result } = await runFleet(h, 'fleet-history', { maxJobs: 5, maxFailedJobs: 0 });

    // Assert
    expect(result.items).toHaveLength(5);
    expect(result.stats.maxHistoryEvents).toBeLessThan(40);
    expect(Math.min(...result.jobs.map((job) => job.stats.historyEvents))).toBeGreaterThan(20);
    const output = result.output as { mapResult?: unknown };
    expect(output).toMatchObject({ outcome: 'finished' });
    const manifests = localStores.planStore
      .keys()
      .filter((k) => k.startsWith('fleets/fleet-history/results/'));
    expect(manifests.some((k) => k.endsWith('/manifest.json'))).toBe(true);
    expect(manifests.some((k) => k.endsWith('/SUCCEEDED_0.json'))).toBe(true);
  });

  it('reports a job locked by another run with its holder, and restarts the rest', async () => {
    // Arrange
    const h = await startJobs();
    const key = { namespace: 'default', jobId: 'db' };
    await holdJob(key, 'other-run');

    // Act
    let run: Awaited<ReturnType<typeof runFleet>>;
    try {
      run = await runFleet(h, 'fleet-locked', { maxJobs: 1, maxFailedJobs: 0 });
    } finally {
      await freeJob(key, 'other-run');
    }

    // Assert: the locked job's item succeeded with the holder's words (a lock is no failure:
    // none is tolerated here, yet every other job restarted).
    const db = run.result.items.find(
      (item) => (item.input as { item: FleetJobItem }).item.input.job === 'db',
    );
    expect(db?.status).toBe('SUCCEEDED');
    expect(db?.output).toMatchObject({ Error: 'JobLocked', Cause: expect.stringContaining('other-run') });
    const finished = run.events.filter((e) => e.type === 'job-finished');
    expect(finished.filter((e) => e.outcome === 'restarted').map((e) => e.job)).toEqual([
      'api',
      'cache',
      'web',
      'worker',
    ]);
    expect(run.result.status).toBe('SUCCEEDED');
  });

  it('cancels the running job at its safe point, starts no other, and stops the fleet', async () => {
    // Arrange
    const h = await startJobs();
    const events: FleetProgressEvent[] = [];
    let fleet: LocalFleet | undefined;

    // Act: an interrupt as the first job restarts its first allocation.
    fleet = await startFleet(
      h,
      'fleet-cancel',
      { maxJobs: 1, maxFailedJobs: 0 },
      {
        emit: (event) => {
          events.push(event);
          if (event.type === 'allocation-restarting') void fleet?.requestCancel();
        },
      },
    );
    const result = await fleet.result;

    // Assert
    expect(result.status).toBe('ABORTED');
    expect(events.filter((e) => e.type === 'job-started').map((e) => e.job)).toEqual(['api']);
    // The job's run ends as a canceled one-job run does, in Nomad's words.
    expect(events.find((e) => e.type === 'job-finished')).toMatchObject({
      job: 'api',
      reason: expect.stringContaining('Canceling job restart process'),
    });
  });

  it("stops the running job with the fleet, and the stopped job's lock does not hold the next run back", async () => {
    // Arrange
    const h = await startJobs();
    const stop = new AbortController();
    const events: FleetProgressEvent[] = [];

    // Act: the fleet stopped (the console's StopExecution) as the first job restarts.
    const fleet = await startFleet(
      h,
      'fleet-stopped',
      { maxJobs: 1, maxFailedJobs: 0 },
      {
        signal: stop.signal,
        emit: (event) => {
          events.push(event);
          if (event.type === 'allocation-restarting') stop.abort();
        },
      },
    );
    const stopped = await fleet.result;
    const next = await runFleet(h, 'fleet-after-stop', { maxJobs: 1, maxFailedJobs: 0 });

    // Assert
    expect(stopped.status).toBe('ABORTED');
    expect(stopped.jobs.map((job) => job.status)).toEqual(['ABORTED']);
    const nextApi = next.events.find((e) => e.type === 'job-finished' && e.job === 'api');
    expect(nextApi).toMatchObject({ outcome: 'restarted' });
  });
});
