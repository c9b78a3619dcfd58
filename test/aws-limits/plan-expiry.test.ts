/**
 * #19 item 12: no plan-store document a running restart needs may expire while it runs. The
 * bucket expires only documents tagged as an ended run's, and a run tags its own only on its
 * way out (Release lock, on success and on every failure path).
 */

import { runRestartLocally } from '../../lib/engines/local/engine';
import { toRestartInput } from '../../lib/restart/input';
import { localStores } from '../../lib/stores/from-env';
import { FlowStates } from '../../lib/workflow/state-names';
import { restartOptions } from '../fixtures/restart-options';
import { harnessPerTest, simpleJob } from '../steps/helpers/harness';

const harness = harnessPerTest();

describe('a run’s plan-store documents', () => {
  it.each([
    { name: 'a run that succeeds', fault: false, status: 'SUCCEEDED' },
    { name: 'a run that fails', fault: true, status: 'FAILED' },
  ])('are marked ended only once $name is over', async ({ fault, status }) => {
    // Arrange
    const h = await harness.startRunning(simpleJob('web', 'service', 4));
    if (fault)
      h.sim.control.injectFault({ pathSuffix: '/restart', nth: 3, status: 500, body: 'Task not running' });
    const store = localStores.planStore;
    const endedWhileRunning: string[] = [];

    // Act
    const local = await runRestartLocally({
      input: toRestartInput(restartOptions('web', { batchSize: { value: 2, percent: false } })),
      nomad: { address: h.sim.address },
      emit: () => undefined,
      prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
      onStateExited: (name) => {
        if (name === 'Decide') endedWhileRunning.push(...store.keys().filter((k) => store.isEnded(k)));
      },
      waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    });
    const result = await local.result;
    const runKeys = store.keys().filter((k) => k.includes(result.executions?.[0]?.name ?? '?'));

    // Assert
    expect(result.status).toBe(status);
    expect(endedWhileRunning.filter((k) => runKeys.includes(k))).toEqual([]);
    expect(runKeys.length).toBeGreaterThanOrEqual(3);
    expect(runKeys.filter((k) => !store.isEnded(k))).toEqual([]);
  });
});
