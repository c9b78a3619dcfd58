/**
 * Scenario: what a run costs in Nomad requests beyond Nomad's own `nomad job restart`
 * (`command/job_restart.go` `Run`: the prefix lookup, the job, its versions, its allocations, then
 * the restarts and a deployment read per batch). The plan reads the versions only when an
 * allocation runs another version than the job's. A run whose plan restarts nothing (an unknown
 * task, every allocation filtered out) costs no more than Nomad's: it takes no lock, writes no record
 * in the job's history and reads no run-control request. A short run that restarts takes the lock
 * (acquire, release: the variable stays for the next run), records itself (a read, the provisional write, the final write at
 * the index it got), reads the run-control request at a safe point only once a second has passed
 * since its last read (counted from its take of the lock: lib/steps/lock/control-read.ts), and
 * renews nothing: its lease has most of its TTL left at every safe point. Through the synthesized
 * workflow, the local engine and the real handlers, against the simulator with ACLs on and a token
 * holding exactly the README's run policy. The steps' clock is the test's: it stands still except
 * while a batch restarts, which takes the time the test says, so the reads do not depend on how
 * fast this machine runs the steps.
 */

import type { RestartOptions } from '../../../lib/restart';
import { batchClock } from '../../engines/local/helpers/batch-clock';
import { runWorkflow } from '../../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob } from '../helpers/harness';

const harness = harnessPerTest();

/** The requests the simulator answered since its counters were reset, as `METHOD path`. */
const requestsOf = (h: Harness) =>
  h.sim.control
    .requestLog()
    .map((entry) =>
      `${entry.method} ${entry.path}`.replace(/allocation\/[^/]+\/restart/, 'allocation/:id/restart'),
    );

/**
 * What the run asks of Nomad before its first batch: the plan's three (no versions: every
 * allocation runs the job's version, lib/steps/plan/job-versions.ts), the lock, the job's history.
 */
const BEFORE_BATCHES = [
  'GET /v1/jobs',
  'GET /v1/job/web',
  'GET /v1/job/web/allocations',
  'PUT /v1/var/nomad-restart/locks/web',
  'GET /v1/var/nomad-restart/history/web',
  'PUT /v1/var/nomad-restart/history/web',
];

/**
 * What it asks after its last batch: its history's final write, the lock's release (which leaves
 * the variable, as Nomad's release does: lib/stores/nomad-variables-lock.ts).
 */
const AFTER_BATCHES = ['PUT /v1/var/nomad-restart/history/web', 'PUT /v1/var/nomad-restart/locks/web'];

const REQUEST_READ = 'GET /v1/var/nomad-restart/requests/web';

/** A batch of `size` in-place restarts, after the deployment guard. */
const batchOf = (size: number) => [
  'GET /v1/job/web/deployments',
  ...Array.from({ length: size }, () => 'PUT /v1/client/allocation/:id/restart'),
];

/**
 * Runs `web` with `allocations` running allocations, under a token holding exactly the README's
 * run policy, its batches taking `batchMs` each when given; the run and the requests it made.
 */
async function countedRun(allocations: number, options: RestartOptions, batchMs?: number) {
  const h = await harness.startRunning(
    simpleJob('web', 'service', allocations),
    { token: OPERATOR_TOKEN },
    { acl: readmePolicyAcl() },
  );
  h.sim.control.resetCounters();
  const clock = batchMs === undefined ? {} : batchClock(batchMs);
  const run = await runWorkflow(h, options, { token: OPERATOR_TOKEN, ...clock });
  return { run, requests: requestsOf(h) };
}

const batchesOf = (size: number) => restartOptions('web', { batchSize: { value: size, percent: false } });

describe('the Nomad requests of a run', () => {
  it('makes three plan requests and no other when it restarts nothing', async () => {
    // Arrange, Act: three running allocations of `web`, none of which has a task `nosuch`.
    const { run, requests } = await countedRun(3, restartOptions('web', { tasks: ['nosuch'] }));

    // Assert
    expect(run.exitCode).toBe(0);
    expect(requests).toEqual(['GET /v1/jobs', 'GET /v1/job/web', 'GET /v1/job/web/allocations']);
    // Its run-level events still say a run happened (the metrics count it), without a record.
    expect(run.events.map((e) => e.type)).toEqual(['nothing-to-restart', 'run-started', 'run-ended']);
  });

  // Six running allocations of `web` each time. The request is read at the first safe point a
  // second or more after its last read, counted from the take, and no lease is renewed.
  it.each([
    {
      name: 'adds the lock and the history, and reads no request when its last safe point is 0.6 s after its take',
      size: 2,
      batchMs: 300,
      expected: [...BEFORE_BATCHES, ...batchOf(2), ...batchOf(2), ...batchOf(2), ...AFTER_BATCHES],
    },
    {
      name: 'reads the request before its second and third batches, 1 s and 2 s after its take',
      size: 2,
      batchMs: 1000,
      expected: [
        ...BEFORE_BATCHES,
        ...batchOf(2),
        REQUEST_READ,
        ...batchOf(2),
        REQUEST_READ,
        ...batchOf(2),
        ...AFTER_BATCHES,
      ],
    },
    {
      name: 'reads the request at 1.2 s only when batches of one take 0.4 s (the next safe point is 0.8 s later)',
      size: 1,
      batchMs: 400,
      expected: [
        ...BEFORE_BATCHES,
        ...batchOf(1),
        ...batchOf(1),
        ...batchOf(1),
        REQUEST_READ,
        ...batchOf(1),
        ...batchOf(1),
        ...batchOf(1),
        ...AFTER_BATCHES,
      ],
    },
  ])('$name', async ({ size, batchMs, expected }) => {
    // Arrange, Act
    const { run, requests } = await countedRun(6, batchesOf(size), batchMs);

    // Assert
    expect(run.exitCode).toBe(0);
    expect(requests).toEqual(expected);
  });
});
