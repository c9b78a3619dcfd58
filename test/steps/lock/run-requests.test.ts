/**
 * Scenario: what a run costs in Nomad requests beyond Nomad's own `nomad job restart`
 * (`command/job_restart.go` `Run`: the prefix lookup, the job, its versions, its allocations, then
 * the restarts and a deployment read per batch). A run whose plan restarts nothing (an unknown
 * task, every allocation filtered out) costs exactly Nomad's: it takes no lock, writes no record
 * in the job's history and reads no run-control request. A short run that restarts takes the lock
 * (acquire, release, delete), records itself (a read, the provisional write, the final write at
 * the index it got) and reads the run-control request before each batch, and renews nothing: its
 * lease has most of its TTL left at every safe point. Through the synthesized workflow, the local
 * engine and the real handlers, against the simulator with ACLs on and a token holding exactly the
 * README's run policy.
 */

import { runWorkflow } from '../../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob } from '../helpers/harness';

const harness = harnessPerTest();

/** The requests the simulator answered since its counters were reset, as `METHOD path`. */
const requestsOf = (h: Harness) => h.sim.control.requestLog().map((entry) => `${entry.method} ${entry.path}`);

describe('the Nomad requests of a run', () => {
  it("makes Nomad's four plan requests and no other when it restarts nothing", async () => {
    // Arrange: three running allocations of `web`, none of which has a task `nosuch`.
    const h = await harness.startRunning(
      simpleJob('web', 'service', 3),
      { token: OPERATOR_TOKEN },
      { acl: readmePolicyAcl() },
    );
    h.sim.control.resetCounters();

    // Act
    const run = await runWorkflow(h, restartOptions('web', { tasks: ['nosuch'] }), { token: OPERATOR_TOKEN });

    // Assert
    expect(run.exitCode).toBe(0);
    expect(requestsOf(h)).toEqual([
      'GET /v1/jobs',
      'GET /v1/job/web',
      'GET /v1/job/web/versions',
      'GET /v1/job/web/allocations',
    ]);
    // Its run-level events still say a run happened (the metrics count it), without a record.
    expect(run.events.map((e) => e.type)).toEqual(['nothing-to-restart', 'run-started', 'run-ended']);
  });

  it('adds the lock, the history and a request read per batch, and renews nothing, in a short run', async () => {
    // Arrange: six running allocations of `web`, restarted two at a time.
    const h = await harness.startRunning(
      simpleJob('web', 'service', 6),
      { token: OPERATOR_TOKEN },
      { acl: readmePolicyAcl() },
    );
    h.sim.control.resetCounters();

    // Act
    const run = await runWorkflow(h, restartOptions('web', { batchSize: { value: 2, percent: false } }), {
      token: OPERATOR_TOKEN,
    });

    // Assert
    expect(run.exitCode).toBe(0);
    const batch = [
      'GET /v1/var/nomad-restart/requests/web',
      'GET /v1/job/web/deployments',
      'PUT /v1/client/allocation/:id/restart',
      'PUT /v1/client/allocation/:id/restart',
    ];
    const requests = requestsOf(h).map((r) =>
      r.replace(/allocation\/[^/]+\/restart/, 'allocation/:id/restart'),
    );
    expect(requests).toEqual([
      'GET /v1/jobs',
      'GET /v1/job/web',
      'GET /v1/job/web/versions',
      'GET /v1/job/web/allocations',
      'PUT /v1/var/nomad-restart/locks/web',
      'GET /v1/var/nomad-restart/history/web',
      'PUT /v1/var/nomad-restart/history/web',
      ...batch,
      ...batch,
      ...batch,
      'PUT /v1/var/nomad-restart/history/web',
      'PUT /v1/var/nomad-restart/locks/web',
      'DELETE /v1/var/nomad-restart/locks/web',
    ]);
  });
});
