/**
 * Scenario: a run whose plan restarts nothing (an unknown task, every allocation filtered out)
 * costs exactly the requests of Nomad's own `nomad job restart` (`command/job_restart.go` `Run`:
 * the prefix lookup, the job, its versions, its allocations): it takes no lock, writes no record
 * in the job's history and reads no run-control request. Through the synthesized workflow, the
 * local engine and the real handlers, against the simulator with ACLs on and a token holding
 * exactly the README's run policy.
 */

import { runWorkflow } from '../../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { harnessPerTest, simpleJob } from '../helpers/harness';

const harness = harnessPerTest();

describe('a run that restarts nothing', () => {
  it("makes Nomad's four plan requests and no other", async () => {
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
    const requests = h.sim.control.requestLog().map((entry) => `${entry.method} ${entry.path}`);
    expect(requests).toEqual([
      'GET /v1/jobs',
      'GET /v1/job/web',
      'GET /v1/job/web/versions',
      'GET /v1/job/web/allocations',
    ]);
    // Its run-level events still say a run happened (the metrics count it), without a record.
    expect(run.events.map((e) => e.type)).toEqual(['nothing-to-restart', 'run-started', 'run-ended']);
  });
});
