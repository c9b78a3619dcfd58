/**
 * The worst mix for Step Functions' 25,000-event history limit, measured through the local engine
 * with the real steps against the simulator (#28): `-reschedule -wait-healthy`, batches of one,
 * each batch awaiting its replacement for `awaitSlices` slices and its health for `healthSlices`
 * more (the simulator holds the replacement pending and its check failing until then; each slice
 * gets a few ms). No per-kind counter trips; the history budget makes the run continue as new.
 * Reports history events per execution and the largest state.
 */
import { DEFAULT_SAFETY_MARGIN_MS } from '../lambdas/private/deadline';
import { runRestartLocally } from '../lib/engines/local/engine';
import { toRestartInput, validateRestartInput } from '../lib/restart/input';
import { TaskStates } from '../lib/workflow/state-names';
import { startSimulator } from '../sim/index';
import { checkedService } from './local-engine';
import { type ReportRow, verdict } from './report';

/** Sizes of the worst-mix run. */
export interface WorstMixSizes {
  readonly batches: number;
  readonly awaitSlices: number;
  readonly healthSlices: number;
}

/** Each await slice's time before its deadline: short, so thousands of slices take a minute or two. */
const SLICE_MS = 5;
const CHECK = 'http';

/** Runs the worst mix; returns the report's row. */
export async function measureWorstMix(sizes: WorstMixSizes): Promise<ReportRow> {
  const sim = await startSimulator({
    timeScale: 0.01,
    // Replacements stay pending until this run starts them.
    allocStartMs: 1e11,
    scenario: {
      nodes: [{ name: 'node-0' }, { name: 'node-1' }],
      jobs: [
        {
          ID: 'worst',
          Type: 'service',
          Datacenters: ['dc1'],
          TaskGroups: [
            {
              Name: 'web',
              Count: sizes.batches,
              Tasks: [{ Name: 'main', Driver: 'mock_driver' }],
              Services: [checkedService(1)],
            },
          ],
        },
      ],
    },
  });
  const options = validateRestartInput(
    {
      job: 'worst',
      batchSize: '1',
      yes: true,
      reschedule: true,
      noShutdownDelay: true,
      waitHealthy: true,
      minHealthyTime: '1ms',
      healthyDeadline: '24h',
    },
    { interactive: false },
  );
  const slices = { await: 0, health: 0 };
  // Every slice run, the ones a loaded machine adds after the scenario's included.
  const total = { await: 0, health: 0 };
  try {
    sim.control.setCheckBehaviour({ jobId: 'worst' }, CHECK, { behaviour: 'never-passing' });
    const onStateEntered = (name: string) => {
      if (name === TaskStates.checkDeployments) {
        slices.await = 0;
        slices.health = 0;
        sim.control.setCheckBehaviour({ jobId: 'worst' }, CHECK, { behaviour: 'never-passing' });
      }
      if (name === TaskStates.awaitBatch) total.await += 1;
      if (name === TaskStates.awaitHealth) total.health += 1;
      if (name === TaskStates.awaitBatch && ++slices.await === sizes.awaitSlices) {
        const pending = sim.control.state().allocations({ jobId: 'worst' });
        for (const a of pending) if (a.ClientStatus === 'pending') sim.control.startPendingAllocation(a.ID);
      } else if (name === TaskStates.awaitHealth && ++slices.health === sizes.healthSlices) {
        sim.control.setCheckBehaviour({ jobId: 'worst' }, CHECK, { behaviour: 'passing' });
      }
    };
    const budget = DEFAULT_SAFETY_MARGIN_MS + SLICE_MS;
    const run = await runRestartLocally({
      input: toRestartInput(options),
      nomad: { address: sim.address },
      emit: () => undefined,
      prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
      invocationBudgetsMs: { [TaskStates.awaitBatch]: budget, [TaskStates.awaitHealth]: budget },
      onStateEntered,
    });
    const result = await run.result;
    const perExecution = (result.executions ?? []).map((e) => e.stats.historyEvents);
    const most = Math.max(...perExecution);
    return {
      metric: `worst mix: ${sizes.batches} batches, -reschedule -wait-healthy, ${sizes.awaitSlices} await + ${sizes.healthSlices} health slices each (${total.await} + ${total.health} run, ${result.stats.historyEvents} events, ${result.status}): history events per execution / largest state`,
      figure: `${perExecution.join(' / ')} / ${(result.stats.maxPayloadBytes / 1024).toFixed(1)} KiB`,
      target: '< 25,000 / < 256 KiB',
      nomadCli: '-',
      verdict: verdict(
        result.status === 'SUCCEEDED' && most < 25_000 && result.stats.maxPayloadBytes < 256 * 1024,
      ),
    };
  } finally {
    await sim.close();
  }
}
