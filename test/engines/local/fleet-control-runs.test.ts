/**
 * Scenario: run control of a fleet through the local fleet engine (docs/run-control.md, "A
 * fleet"): 4 jobs of 3 batches each with `-max-jobs 2`, against the simulator over HTTP with ACLs
 * on and the README's policy. A fleet-level pause holds both running jobs at their next safe point
 * (no restart request between the pause and the resume) and starts no third job; its one decision
 * (a resume request, or the fleet's question) lets all 4 finish; a stop cancels the running jobs,
 * attributed, starts no third, and releases every lock.
 */

import type { ControlRequest, ControlVerb } from '../../../lib/control/requests';
import {
  type FleetRunResult,
  type LocalFleet,
  type LocalFleetRequest,
  runFleetLocally,
} from '../../../lib/engines/local/fleet-engine';
import { type LocalDefinitions, loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import { localStores } from '../../../lib/stores/from-env';
import { planKeys } from '../../../lib/stores/plan-keys';
import { sharedLockPath } from '../../../lib/stores/shared-lock-settings';
import type { RequestLogEntry } from '../../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../../steps/helpers/harness';
import { quickFleetParts } from './helpers/fleet-harness';

const JOBS = ['api', 'cache', 'db', 'web'];

let stateMachines: LocalDefinitions;
beforeAll(async () => {
  stateMachines = (await loadLocalDefinition()).stateMachine;
});

const request = (verb: ControlVerb, requestedBy = 'alice@laptop'): ControlRequest => ({
  verb,
  requestedBy,
  via: 'terminal',
  at: Date.now(),
});

/** A restart call to Nomad (`PUT /v1/client/allocation/<id>/restart`). */
const isRestart = (entry: RequestLogEntry) => entry.method === 'PUT' && entry.path.endsWith('/restart');

/** A fleet of {@link JOBS} (`-max-jobs 2`), whose events `onEvent` also sees as they come. */
interface ControlledFleet {
  readonly fleet: LocalFleet;
  readonly events: FleetProgressEvent[];
  /** Resolves once `check` holds for the events so far. */
  until(check: (events: readonly FleetProgressEvent[]) => boolean): Promise<void>;
  /** Resolves once each of `jobs` emitted an event of `type`. */
  eachEmitted(type: FleetProgressEvent['type'], jobs: readonly string[]): Promise<void>;
  /** The request log's length when each job's first event of `type` came. */
  readonly logAt: Map<string, number>;
}

async function startFleet(
  h: Harness,
  runId: string,
  extra: Partial<LocalFleetRequest> = {},
): Promise<ControlledFleet> {
  const events: FleetProgressEvent[] = [];
  const logAt = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const fleet = await runFleetLocally({
    input: { namespace: 'default', filter: 'Type == "service"', yes: true, maxJobs: 2, maxFailedJobs: 0 },
    executionName: runId,
    stateMachines,
    ...quickFleetParts(h),
    emit: (event) => {
      events.push(event);
      if (event.type === 'paused' && 'job' in event) logAt.set(event.job, h.sim.control.requestLog().length);
      for (const wake of waiters) wake();
    },
    now: h.now,
    sleep: h.sleep,
    // A paused job looks for its `resume` or `stop` request this often (real ms).
    controlPollMs: 20,
    ...extra,
  });
  const until = (check: (events: readonly FleetProgressEvent[]) => boolean) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        if (check(events)) resolve();
      };
      waiters.push(wake);
      wake();
    });
  return {
    fleet,
    events,
    logAt,
    until,
    eachEmitted: (type, jobs) => until(() => jobs.every((job) => jobsWith(events, type).has(job))),
  };
}

/** The jobs that emitted an event of `type`. */
const jobsWith = (events: readonly FleetProgressEvent[], type: FleetProgressEvent['type']) =>
  new Set(events.flatMap((e) => (e.type === type && 'job' in e ? [e.job] : [])));

/** The jobs that started, in order. */
const started = (events: readonly FleetProgressEvent[]) =>
  events.filter((e) => e.type === 'job-started').map((e) => e.job);

/** Waits until both running jobs restart an allocation of their first batch; answers those jobs. */
async function bothRestarting(run: ControlledFleet): Promise<string[]> {
  await run.until((events) => jobsWith(events, 'allocation-restarting').size >= 2);
  return started(run.events);
}

/** Whether the job's lock is free: another run takes it (and lets it go again). */
async function lockIsFree(job: string): Promise<boolean> {
  const key = { namespace: 'default', jobId: job };
  try {
    await localStores.lock.acquire(key, { owner: 'probe', ttlSeconds: 60 });
  } catch {
    return false;
  }
  await localStores.lock.release(key, 'probe');
  return true;
}

/** Real ms to let a paused fleet sit: 100 simulated seconds at the harness's scale. */
const HOLD_MS = 1_000;

describe('runFleetLocally with run control', () => {
  const harness = harnessPerTest();
  /** {@link JOBS}, 3 allocations each (3 batches), or as many as `counts` says. */
  const startJobs = async (counts: Readonly<Record<string, number>> = {}) => {
    const count = (id: string) => counts[id] ?? 3;
    const h = await harness.start(
      { jobs: JOBS.map((id) => simpleJob(id, 'service', count(id))), acl: readmePolicyAcl(['default']) },
      { token: OPERATOR_TOKEN },
    );
    for (const id of JOBS) await waitAllRunning(h, id, count(id));
    return h;
  };

  it('holds both running jobs at their safe points and starts no third until resumed, then finishes all 4', async () => {
    // Arrange
    const h = await startJobs();
    const run = await startFleet(h, 'fleet-pause');
    const running = await bothRestarting(run);

    // Act: pause the fleet, let it sit, then resume it.
    const paused = await run.fleet.requestControl(request('pause'));
    await run.eachEmitted('paused', running);
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    const logAtResume = h.sim.control.requestLog().length;
    const startedWhilePaused = started(run.events);
    const resumed = await run.fleet.requestControl(request('resume', 'bob@desk'));
    const result: FleetRunResult = await run.fleet.result;

    // Assert
    expect(paused.kind).toBe('paused');
    expect(resumed.kind).toBe('resumed');
    expect(startedWhilePaused).toEqual(running);
    const log = h.sim.control.requestLog();
    for (const job of running) {
      const between = log.slice(run.logAt.get(job), logAtResume).filter((e) => e.job === job);
      expect(between.filter(isRestart)).toEqual([]);
    }
    const resumedBy = run.events.flatMap((e) => (e.type === 'resumed' ? [e.resumedBy] : []));
    expect(resumedBy).toEqual(['bob@desk (terminal)', 'bob@desk (terminal)']);
    const paused2 = run.events.filter((e) => e.type === 'paused');
    expect(paused2.map((e) => ('job' in e ? e.job : '')).sort()).toEqual([...running].sort());
    expect(paused2[0]).toMatchObject({ request: { verb: 'pause', requestedBy: 'alice@laptop' } });
    expect(result.status).toBe('SUCCEEDED');
    const finished = run.events.filter((e) => e.type === 'job-finished');
    expect(finished.map((e) => [e.job, e.outcome]).sort()).toEqual(JOBS.map((job) => [job, 'restarted']));
  });

  it('starts no further job in the slot of a job that finished while the fleet was paused', async () => {
    // Arrange: "api" has one batch only, so it finishes without another safe point.
    const h = await startJobs({ api: 1 });
    const run = await startFleet(h, 'fleet-pause-slot');
    const running = await bothRestarting(run);

    // Act
    await run.fleet.requestControl(request('pause'));
    await run.eachEmitted('job-finished', ['api']);
    await run.eachEmitted('paused', ['cache']);
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    const startedWhilePaused = started(run.events);
    await run.fleet.requestControl(request('resume'));
    const result = await run.fleet.result;

    // Assert
    expect(running).toEqual(['api', 'cache']);
    expect(startedWhilePaused).toEqual(['api', 'cache']);
    expect(result.status).toBe('SUCCEEDED');
    expect(started(run.events)).toEqual(JOBS);
  });

  it('asks one question for the fleet, not one per job, and its yes resumes every job', async () => {
    // Arrange
    const h = await startJobs();
    const asked: ControlRequest[] = [];
    const prompts: string[] = [];
    let answer: (yes: boolean) => void = () => {};
    const run = await startFleet(h, 'fleet-question', {
      prompt: async (prompt) => {
        prompts.push(prompt);
        return { kind: 'read-error', text: 'EOF' };
      },
      askPause: async (pause) => {
        asked.push(pause);
        const yes = await new Promise<boolean>((resolve) => (answer = resolve));
        return { decision: yes ? 'resume' : 'stop', answeredBy: 'carol@tty' };
      },
    });
    const running = await bothRestarting(run);

    // Act
    await run.fleet.requestControl(request('pause'));
    await run.eachEmitted('paused', running);
    answer(true);
    const result = await run.fleet.result;

    // Assert
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ verb: 'pause', requestedBy: 'alice@laptop' });
    // The jobs' own pause questions never reached the terminal: the fleet's decision answered them.
    expect(prompts).toEqual([]);
    expect(result.status).toBe('SUCCEEDED');
    expect(run.events.filter((e) => e.type === 'job-finished')).toHaveLength(4);
  });

  it('stops the running jobs at their safe points, attributed, starts no third, and releases every lock', async () => {
    // Arrange
    const h = await startJobs();
    const run = await startFleet(h, 'fleet-stop');
    const running = await bothRestarting(run);

    // Act
    const stopped = await run.fleet.requestControl(request('stop', 'dave@ops'));
    const result = await run.fleet.result;

    // Assert
    expect(stopped.kind).toBe('stopped');
    expect(result.status).toBe('ABORTED');
    expect(started(run.events)).toEqual(running);
    const stopLines = run.events.filter((e) => e.type === 'stopped');
    expect(stopLines.map((e) => ('job' in e ? e.job : '')).sort()).toEqual([...running].sort());
    expect(stopLines[0]).toMatchObject({ request: { requestedBy: 'dave@ops', verb: 'stop' } });
    for (const job of JOBS) {
      expect(await lockIsFree(job)).toBe(true);
      expect(h.sim.control.state().variable('default', sharedLockPath(job))?.lock).toBeUndefined();
    }
  });

  it('stops a paused fleet: the parked jobs end canceled and no third job starts', async () => {
    // Arrange
    const h = await startJobs();
    const run = await startFleet(h, 'fleet-pause-stop');
    const running = await bothRestarting(run);
    await run.fleet.requestControl(request('pause'));
    await run.eachEmitted('paused', running);

    // Act
    await run.fleet.requestControl(request('stop', 'dave@ops'));
    const result = await run.fleet.result;

    // Assert
    expect(result.status).toBe('ABORTED');
    expect(started(run.events)).toEqual(running);
    const finished = run.events.filter((e) => e.type === 'job-finished');
    for (const job of running) {
      expect(finished.find((e) => e.job === job)).toMatchObject({
        outcome: 'canceled',
        reason: 'canceled: its question was answered "no"',
      });
    }
    // The fleet's stop answered each parked job's pause question, attributed in its run's record.
    for (const job of running) {
      const runId = finished.find((e) => e.job === job)?.executionArn ?? '';
      expect(await localStores.planStore.get(planKeys.runRecord(runId))).toMatchObject({
        stoppedBy: 'dave@ops (terminal)',
      });
    }
    // The third job was never started: its item ends with the fleet.
    expect(finished.filter((e) => !running.includes(e.job)).map((e) => e.reason)).toEqual([
      'canceled: stopped before it finished',
    ]);
  });

  it('tells a resume of a fleet that is not paused apart, changing nothing', async () => {
    // Arrange
    const h = await startJobs();
    const run = await startFleet(h, 'fleet-resume-running');

    // Act
    const change = await run.fleet.requestControl(request('resume'));
    const result = await run.fleet.result;

    // Assert
    expect(change).toEqual({ kind: 'ignored', reason: 'the fleet is not paused' });
    expect(result.status).toBe('SUCCEEDED');
  });
});
