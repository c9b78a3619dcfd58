/**
 * #19 item 1 at run time: a Plan step whose Nomad answers add up to 63 s — longer than the 60 s
 * its Task used to allow, within its function's 120 s — completes. The strict local engine applies
 * both limits from the template (Task `TimeoutSeconds`, function `Timeout`), so with the old task
 * timeout this run failed with `States.Timeout`. It takes a real minute, on purpose.
 */

import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, simpleJob } from '../steps/helpers/harness';

/** Each of the Plan step's three slow reads; each stays under the client's own 60 s request limit. */
const SLOW_READ_MS = 21_000;

const harness = harnessPerTest();

describe('a slow Nomad', () => {
  it('is waited for as long as the function may run, longer than the old task timeout', async () => {
    // Arrange
    const h = await harness.startRunning(simpleJob('web', 'service', 2));
    for (const pathSuffix of ['/v1/jobs', '/v1/job/web', '/allocations']) {
      h.sim.control.injectFault({ kind: 'latency', latencyMs: SLOW_READ_MS, pathSuffix, method: 'GET' });
    }

    // Act
    const started = Date.now();
    const run = await runWorkflow(h, restartOptions('web'));
    const elapsedMs = Date.now() - started;

    // Assert
    expect(run.result.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    // The premise, not a speed target: the injected latency alone is 63 s.
    expect(elapsedMs).toBeGreaterThan(60_000);
    expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(2);
  });
});
