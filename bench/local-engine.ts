/**
 * What the workflow costs on top of the engine: the synthesized state machine run by the local
 * engine (real handlers, real engine) against the simulator, next to the bare engine loop
 * (`runRestart`) on the same job. Counts states, Lambda invocations, payloads and history.
 */
import { runRestartLocally } from '../lib/engines/local/engine';
import { NomadClient } from '../lib/nomad/index';
import type { ProgressEvent } from '../lib/restart/events';
import { toRestartInput, validateRestartInput } from '../lib/restart/input';
import { runRestart } from '../lib/steps/index';
import { TASK_STATE_HANDLERS } from '../lib/workflow/state-names';
import { startSimulator } from '../sim/index';

export interface LocalRunMeasure {
  readonly allocations: number;
  readonly batchSize: string;
  readonly reschedule: boolean;
  readonly batches: number;
  readonly states: number;
  readonly statesPerBatch: number;
  /** Task states entered, i.e. Lambda invocations on AWS. */
  readonly lambdaInvocations: number;
  readonly historyEvents: number;
  readonly maxPayloadBytes: number;
  readonly requests: number;
  readonly workflowMs: number;
  readonly engineMs: number;
  /** Median ms between a replacement's task start (simulator) and our "is running" event. */
  readonly replacementLatencyMs?: number;
}

const NODES = 100;

function scenario(allocations: number, type: string) {
  return {
    nodes: Array.from({ length: NODES }, (_, i) => ({ name: `node-${i}` })),
    jobs: [
      {
        ID: 'bench',
        Type: type,
        Datacenters: ['dc1'],
        TaskGroups: [{ Name: 'web', Count: allocations, Tasks: [{ Name: 'main', Driver: 'mock_driver' }] }],
      },
    ],
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One job, restarted once through the workflow and once through the bare engine loop. */
export async function measureLocalRun(opts: {
  allocations: number;
  batchSize: string;
  reschedule: boolean;
  timeScale: number;
}): Promise<LocalRunMeasure> {
  const raw = {
    job: 'bench',
    batchSize: opts.batchSize,
    yes: true,
    reschedule: opts.reschedule,
    noShutdownDelay: opts.reschedule,
  };
  const options = validateRestartInput(raw, { interactive: false });
  const sim = await startSimulator({
    timeScale: opts.timeScale,
    scenario: scenario(opts.allocations, 'service'),
  });
  const entered: string[] = [];
  const events: ProgressEvent[] = [];
  let workflowMs: number;
  let latency: number[] = [];
  let result: Awaited<Awaited<ReturnType<typeof runRestartLocally>>['result']>;
  try {
    process.env['NOMAD_ADDR'] = sim.address;
    sim.control.resetCounters();
    const started = performance.now();
    const run = await runRestartLocally({
      input: toRestartInput(options),
      emit: (event) => events.push(event),
      prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
      onStateEntered: (name) => entered.push(name),
    });
    result = await run.result;
    workflowMs = performance.now() - started;
    if (result.status !== 'SUCCEEDED')
      throw new Error(`workflow run ${result.status}: ${result.cause ?? ''}`);
    if (opts.reschedule) latency = replacementLatencies(sim, events);
  } finally {
    await sim.close();
  }
  const requests = sim.control.counters()['total'] ?? 0;
  const engineMs = await measureEngineLoop(opts, options);
  const batches = entered.filter((s) => s === 'Check deployments').length;
  const loop = entered.slice(entered.indexOf('Check deployments'), entered.indexOf('Finish restart'));
  return {
    allocations: opts.allocations,
    batchSize: opts.batchSize,
    reschedule: opts.reschedule,
    batches,
    states: entered.length,
    statesPerBatch: loop.length / Math.max(1, batches),
    lambdaInvocations: entered.filter((s) => TASK_STATE_HANDLERS[s] !== undefined).length,
    historyEvents: result.stats.historyEvents,
    maxPayloadBytes: result.stats.maxPayloadBytes,
    requests,
    workflowMs,
    engineMs,
    ...(latency.length > 0 ? { replacementLatencyMs: median(latency) } : {}),
  };
}

/** ms from each replacement's task start (simulator clock) to our `"running"` event. */
function replacementLatencies(
  sim: Awaited<ReturnType<typeof startSimulator>>,
  events: ProgressEvent[],
): number[] {
  const latencies: number[] = [];
  for (const event of events) {
    if (event.type !== 'allocation-status' || event.verbose || event.status !== 'running') continue;
    const startedAt = sim.control.state().allocation(event.allocationId)?.TaskStates?.['main']?.StartedAt;
    if (startedAt) latencies.push(event.time - Date.parse(startedAt));
  }
  return latencies;
}

async function measureEngineLoop(
  opts: { allocations: number; timeScale: number; reschedule: boolean },
  options: ReturnType<typeof validateRestartInput>,
): Promise<number> {
  const sim = await startSimulator({
    timeScale: opts.timeScale,
    scenario: scenario(opts.allocations, 'service'),
  });
  const client = NomadClient.create({ address: sim.address });
  try {
    const started = performance.now();
    await runRestart(client, options, { emit: () => undefined, ask: async () => ({ kind: 'yes' }) });
    return performance.now() - started;
  } finally {
    await client.close();
    await sim.close();
  }
}
