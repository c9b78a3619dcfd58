/**
 * Scenario: a fleet through the synthesized fleet state machine and the local engine, with the
 * real handlers ("Plan fleet" selecting by Nomad's filter, "Summarize fleet" reading the
 * Distributed Map's results) and each job a run of the synthesized one-job state machine, against
 * the simulator over HTTP with ACLs on and the README's policy: the Distributed Map's limits
 * over real jobs, the events tagged with their job, a locked job told apart, a cancel and a stop.
 */

import {
  type FleetRunResult,
  type LocalFleet,
  type LocalFleetRequest,
  runFleetLocally,
} from '../../../lib/engines/local/fleet-engine';
import { type LocalDefinitions, loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import type { FleetJobItem } from '../../../lib/fleet/items';
import { localStores } from '../../../lib/stores/from-env';
import type { FleetState } from '../../../lib/workflow/fleet-state-names';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import {
  allocationsOf,
  type Harness,
  harnessPerTest,
  simpleJob,
  waitAllRunning,
} from '../../steps/helpers/harness';
import { quickFleetParts } from './helpers/fleet-harness';
import { freeJob, holdJob } from './helpers/workflow-harness';

const JOBS = ['api', 'cache', 'db', 'web', 'worker'];

let stateMachines: LocalDefinitions;
beforeAll(async () => {
  stateMachines = (await loadLocalDefinition()).stateMachine;
});

/** Starts a fleet of {@link JOBS} against `h`'s simulator; `extra` overrides the request. */
async function startFleet(
  h: Harness,
  runId: string,
  budget: FleetState['budget'],
  extra: Partial<LocalFleetRequest> = {},
): Promise<LocalFleet> {
  return runFleetLocally({
    input: { namespace: 'default', filter: 'Type == "service"', yes: true, ...budget },
    executionName: runId,
    stateMachines,
    ...quickFleetParts(h),
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
    const h = await harness.start(
      {
        jobs: [...JOBS.map((id) => simpleJob(id, 'service', 2)), simpleJob('nightly', 'sysbatch', 1)],
        acl: readmePolicyAcl(['default']),
      },
      { token: OPERATOR_TOKEN },
    );
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
    expect(events[0]).toMatchObject({ type: 'fleet-planned', jobs: 5, allocations: 10 });
    expect(events.at(-1)).toMatchObject({
      type: 'fleet-finished',
      restarted: 5,
      failed: 0,
      withErrors: false,
    });
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
    expect(result.output).toMatchObject({ outcome: 'finished', restarted: 5 });
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
    expect(db?.output).toMatchObject({ job: 'db', output: expect.stringContaining('other-run') });
    const finished = run.events.filter((e) => e.type === 'job-finished');
    expect(finished.filter((e) => e.outcome === 'restarted').map((e) => e.job)).toEqual([
      'api',
      'cache',
      'web',
      'worker',
    ]);
    // Outside a schedule a locked job is not done: the fleet ends with errors, naming it.
    expect(run.result.error).toBe('FleetRestartFinishedWithErrors');
    expect(finished.find((e) => e.job === 'db')).toMatchObject({ outcome: 'locked' });
    expect(run.events.at(-1)).toMatchObject({ type: 'fleet-finished', restarted: 4, withErrors: true });
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

  it('starts no further job once more jobs failed than maxFailedJobs tolerates', async () => {
    // Arrange: every restart of "cache" and "web" refused by Nomad; one failed job tolerated.
    const h = await startJobs();
    for (const jobId of ['cache', 'web']) {
      for (const allocation of allocationsOf(h, jobId)) {
        h.sim.control.injectFault({
          pathSuffix: `/${allocation.ID}/restart`,
          method: 'PUT',
          status: 400,
          body: 'restart refused',
        });
      }
    }
    const events: FleetProgressEvent[] = [];

    // Act
    const fleet = await startFleet(
      h,
      'fleet-budget',
      { maxJobs: 1, maxFailedJobs: 1 },
      {
        input: {
          namespace: 'default',
          filter: 'Type == "service"',
          yes: true,
          onError: 'fail',
          maxJobs: 1,
          maxFailedJobs: 1,
        },
        emit: (event) => events.push(event),
      },
    );
    const result = await fleet.result;

    // Assert
    expect(events.filter((e) => e.type === 'job-started').map((e) => e.job)).toEqual([
      'api',
      'cache',
      'db',
      'web',
    ]);
    expect(result.error).toBe('FleetRestartFinishedWithErrors');
    expect(events.at(-1)).toMatchObject({
      type: 'fleet-finished',
      restarted: 2,
      failed: 2,
      skipped: 1,
      withErrors: true,
    });
    expect(result.cause).toContain('worker');
  });

  it("asks the jobs' questions one at a time, each naming its job", async () => {
    // Arrange: two jobs at once, each asking before its second batch.
    const h = await startJobs();
    const prompts: string[] = [];
    let open = 0;
    let mostOpen = 0;

    // Act
    const fleet = await startFleet(
      h,
      'fleet-questions',
      { maxJobs: 2, maxFailedJobs: 0 },
      {
        // Without -yes, as -yes answers every question.
        input: { namespace: 'default', filter: 'Type == "service"', batchWait: 'ask', maxJobs: 2 },
        prompt: async (prompt) => {
          prompts.push(prompt);
          mostOpen = Math.max(mostOpen, ++open);
          await new Promise((resolve) => setTimeout(resolve, 20));
          open -= 1;
          return { kind: 'answer', text: 'y' };
        },
      },
    );
    const result = await fleet.result;

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(mostOpen).toBe(1);
    expect([...prompts].sort()).toEqual(
      JOBS.map((job) => `[default/${job}] Proceed with the next batch? [Y/n/<wait duration>]`),
    );
  });
});
