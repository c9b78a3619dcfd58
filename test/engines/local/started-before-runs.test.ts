/**
 * Scenarios: the console input `startedBefore` through the synthesized state machine on the local
 * engine, against the simulator. Of three allocations, one restarted after T by hand: the run
 * restarts the other two, and its summary counts the third as started after the time given; the
 * same input again restarts nothing, says `All 3 allocations started after <T>`, and succeeds.
 */
import type { RunSummary } from '../../../lib/restart/run-summary';
import { createScaledClock } from '../../../sim/index';
import { eventsOf, harnessPerTest, restartAfter, simpleJob } from '../../steps/helpers/harness';
import { runWorkflowInput } from './helpers/workflow-harness';

const RESTARTS = 'PUT /v1/client/allocation/:id/restart';

const harness = harnessPerTest();

describe('a run with startedBefore', () => {
  it('restarts what started before T, counts the rest as fresh, and a repeated run restarts nothing', async () => {
    // Arrange: T after every first start; then one allocation restarts by hand, after T. The
    // simulator keeps the wall's time here: Validate input refuses a T after the execution's start.
    const h = await harness.startRunning(simpleJob('web', 'service', 3), { clock: createScaledClock(1) });
    const T = Date.now() + 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const [fresh] = h.sim.control.state().allocations({ jobId: 'web' });
    await restartAfter(h, 'web', fresh?.ID ?? '', T);
    h.sim.control.resetCounters();
    const input = { job: 'web', batchSize: '2', yes: true, startedBefore: new Date(T).toISOString() };

    // Act
    const run = await runWorkflowInput(h, input);
    const restartedByRun = h.sim.control.counters()[RESTARTS];
    const again = await runWorkflowInput(h, input);

    // Assert
    expect(restartedByRun).toBe(2);
    expect(run.result.output).toMatchObject({
      outcome: 'succeeded',
      allocations: { planned: 2, restarted: 2, skipped: { alreadyFresh: 1 } },
    });
    expect((run.result.output as RunSummary).lines).toContain('Skipped: 1 started after the time given');
    expect(eventsOf(again.events, 'all-started-after').map((e) => [e.count, e.startedBefore])).toEqual([
      [3, T],
    ]);
    expect(again.result.output).toMatchObject({
      outcome: 'succeeded',
      allocations: { planned: 0, restarted: 0, skipped: { alreadyFresh: 3 } },
    });
    expect(h.sim.control.counters()[RESTARTS]).toBe(2);
  });
});
