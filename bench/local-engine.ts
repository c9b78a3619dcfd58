/**
 * One restart through the synthesized state machine, run by the local engine (real handlers,
 * real steps) against the simulator: states, Lambda invocations, payloads, history, Nomad
 * requests, and how much of the wall time the steps themselves took (the rest is orchestration).
 */
import { runRestartLocally } from '../lib/engines/local/engine';
import type { ProgressEvent } from '../lib/restart/events';
import { toRestartInput, validateRestartInput } from '../lib/restart/input';
import { TASK_STATE_HANDLERS } from '../lib/workflow/state-names';
import { type SimControl, startSimulator } from '../sim/index';

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
  /** History events of the largest single execution (the quota is per execution). */
  readonly maxHistoryEvents: number;
  readonly maxPayloadBytes: number;
  readonly requests: number;
  /** Requests by route, totals left out. */
  readonly byRoute: Record<string, number>;
  /** Requests to the simulator's Consul (the gate's Consul reads), totals included. */
  readonly consulCounters: Record<string, number>;
  readonly workflowMs: number;
  /** Time spent inside Task states (the steps' own work, Nomad calls included). */
  readonly stepsMs: number;
  /** Median ms between a replacement's task start (simulator) and our "is running" event. */
  readonly replacementLatencyMs?: number;
}

/** An `http` check on a service every `checkIntervalS` simulated seconds, in Nomad or in Consul. */
export function checkedService(checkIntervalS: number, provider: 'nomad' | 'consul' = 'nomad') {
  return {
    Name: 'bench-web',
    Provider: provider,
    PortLabel: 'http',
    Checks: [{ Name: 'http', Type: 'http', Path: '/', Interval: checkIntervalS * 1e9, Timeout: 1e9 }],
  };
}

function scenario(allocations: number, type: string, nodes: number, gate?: HealthGateRun) {
  // A Consul service sits on the task, as most jobs declare it: its restart registers it again.
  const consul = gate?.provider === 'consul';
  const service = gate === undefined ? undefined : checkedService(gate.checkIntervalS, gate.provider);
  return {
    nodes: Array.from({ length: nodes }, (_, i) => ({ name: `node-${i}` })),
    jobs: [
      {
        ID: 'bench',
        Type: type,
        Datacenters: ['dc1'],
        TaskGroups: [
          {
            Name: 'web',
            Count: allocations,
            Tasks: [
              { Name: 'main', Driver: 'mock_driver', ...(consul && service ? { Services: [service] } : {}) },
            ],
            ...(!consul && service ? { Services: [service] } : {}),
          },
        ],
      },
    ],
  };
}

/** `-wait-healthy` for a measured run, and the Nomad check its allocations get. */
export interface HealthGateRun {
  readonly minHealthyTime: string;
  readonly healthyDeadline: string;
  /** The check's interval, in simulated seconds. */
  readonly checkIntervalS: number;
  /** Where the check runs: Nomad's own checks, or Consul's. @default 'nomad' */
  readonly provider?: 'nomad' | 'consul';
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One service job of `allocations` on `nodes` nodes (default 100), restarted through the workflow. */
export async function measureLocalRun(opts: {
  allocations: number;
  batchSize: string;
  reschedule: boolean;
  timeScale: number;
  nodes?: number;
  /** Sets up faults before the run (a worst case); a run that then fails is measured, not refused. */
  faults?: (control: SimControl) => void;
  /** Runs with `-wait-healthy`, the allocations behind a Nomad check. @default - no gate, no check */
  health?: HealthGateRun;
}): Promise<LocalRunMeasure> {
  const gate = opts.health;
  const raw = {
    job: 'bench',
    batchSize: opts.batchSize,
    yes: true,
    reschedule: opts.reschedule,
    noShutdownDelay: opts.reschedule,
    ...(gate === undefined
      ? {}
      : { waitHealthy: true, minHealthyTime: gate.minHealthyTime, healthyDeadline: gate.healthyDeadline }),
  };
  const options = validateRestartInput(raw, { interactive: false });
  const sim = await startSimulator({
    timeScale: opts.timeScale,
    scenario: scenario(opts.allocations, 'service', opts.nodes ?? 100, gate),
  });
  const entered: string[] = [];
  const taskEnteredAt = new Map<string, number>();
  let stepsMs = 0;
  const events: ProgressEvent[] = [];
  let workflowMs: number;
  let latency: number[] = [];
  let result: Awaited<Awaited<ReturnType<typeof runRestartLocally>>['result']>;
  try {
    sim.control.resetCounters();
    sim.consul.control.resetCounters();
    opts.faults?.(sim.control);
    const started = performance.now();
    const run = await runRestartLocally({
      input: toRestartInput(options),
      nomad: { address: sim.address },
      consul: { address: sim.consul.address },
      emit: (event) => events.push(event),
      prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
      onStateEntered: (name, type) => {
        entered.push(name);
        if (type === 'Task') taskEnteredAt.set(name, performance.now());
      },
      onStateExited: (name) => {
        const at = taskEnteredAt.get(name);
        if (at !== undefined) stepsMs += performance.now() - at;
        taskEnteredAt.delete(name);
      },
    });
    result = await run.result;
    workflowMs = performance.now() - started;
    if (result.status !== 'SUCCEEDED' && opts.faults === undefined)
      throw new Error(`workflow run ${result.status}: ${result.cause ?? ''}`);
    if (opts.reschedule) latency = replacementLatencies(sim, events);
  } finally {
    await sim.close();
  }
  const counters = sim.control.counters();
  const consulCounters = sim.consul.control.counters();
  const requests = counters['total'] ?? 0;
  const byRoute = Object.fromEntries(Object.entries(counters).filter(([key]) => !key.startsWith('total')));
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
    maxHistoryEvents: result.stats.maxHistoryEvents,
    maxPayloadBytes: result.stats.maxPayloadBytes,
    requests,
    byRoute,
    consulCounters,
    workflowMs,
    stepsMs,
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
