/**
 * The scale rows of `npm run bench`: a 50,000-allocation job restarted in place at batch size 100
 * and with `-reschedule` at batch 500, through the local engine and continue-as-new (a stack
 * synthesized with a few batches per execution), against a simulator in its own process: the
 * largest state payload, the most history events in one execution, and the engine's peak memory.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { App } from 'aws-cdk-lib';
import { NomadRestartStack } from '../lib/constructs/nomad-restart-stack';
import { runRestartLocally } from '../lib/engines/local/engine';
import { extractStateMachineDefinition } from '../lib/engines/local/index';
import type { LocalStateMachine } from '../lib/engines/local/local-definition';
import { toRestartInput, validateRestartInput } from '../lib/restart/input';
import { type ReportRow, verdict } from './report';

/** One scale run's figures. */
export interface ScaleMeasure {
  readonly allocations: number;
  readonly batchSize: number;
  readonly reschedule: boolean;
  readonly status: string;
  readonly executions: number;
  readonly maxPayloadBytes: number;
  readonly maxHistoryEvents: number;
  /** Peak resident memory of this process (the engine, its handlers and client) during the run. */
  readonly peakRssBytes: number;
  /** Resident memory when the run started (what was loaded before it, the CDK synthesis included). */
  readonly startRssBytes: number;
  readonly wallMs: number;
}

/** The deployable stack with `batchesPerExecution` set low, so a run continues as new. */
export function stackContinuingEvery(batchesPerExecution: number): LocalStateMachine {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  new NomadRestartStack(app, 'NomadRestartScale', {
    nomadAddress: 'https://nomad.example.internal:4646',
    batchesPerExecution,
  });
  const template = app.synth().getStackByName('NomadRestartScale').template as Record<string, unknown>;
  const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(template);
  return { definition, stateMachineArn, functionTimeoutsMs };
}

async function simulatorProcess(allocations: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./scale-sim.ts', import.meta.url).pathname, String(allocations)],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  if (child.stdout === null) throw new Error('scale simulator: no stdout');
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { address: line.trim(), stop: () => child.disconnect() };
}

/** Restarts a fresh job of `allocations` through `stateMachine`; the simulator runs apart. */
export async function measureScale(opts: {
  allocations: number;
  batchSize: number;
  reschedule: boolean;
  stateMachine: LocalStateMachine;
}): Promise<ScaleMeasure> {
  const sim = await simulatorProcess(opts.allocations);
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    const options = validateRestartInput(
      {
        job: 'scale',
        batchSize: String(opts.batchSize),
        yes: true,
        reschedule: opts.reschedule,
        noShutdownDelay: opts.reschedule,
      },
      { interactive: false },
    );
    const started = performance.now();
    const run = await runRestartLocally({
      input: toRestartInput(options),
      nomad: { address: sim.address },
      emit: () => undefined,
      prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
      stateMachine: opts.stateMachine,
    });
    const result = await run.result;
    return {
      allocations: opts.allocations,
      batchSize: opts.batchSize,
      reschedule: opts.reschedule,
      status: result.status,
      executions: result.stats.executions,
      maxPayloadBytes: result.stats.maxPayloadBytes,
      maxHistoryEvents: result.stats.maxHistoryEvents,
      peakRssBytes: Math.max(peak, process.memoryUsage().rss),
      startRssBytes: startRss,
      wallMs: performance.now() - started,
    };
  } finally {
    clearInterval(sampler);
    sim.stop();
  }
}

/** The scale rows' sizes: each run restarts `allocations` at `batchSize`. */
export interface ScaleSizes {
  readonly inPlace: { readonly allocations: number; readonly batchSize: number };
  readonly reschedule: { readonly allocations: number; readonly batchSize: number };
  /** Continue-as-new every this many batches (the deployable default is 200). */
  readonly batchesPerExecution: number;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

/** Runs both scale restarts and reports payload, history, executions and the engine's memory. */
export async function scaleRows(sizes: ScaleSizes): Promise<ReportRow[]> {
  const stateMachine = stackContinuingEvery(sizes.batchesPerExecution);
  const rows: ReportRow[] = [];
  let peak = 0;
  let start = 0;
  for (const [label, size, reschedule] of [
    ['in place', sizes.inPlace, false],
    ['-reschedule', sizes.reschedule, true],
  ] as const) {
    const run = await measureScale({ ...size, reschedule, stateMachine });
    peak = Math.max(peak, run.peakRssBytes);
    start = Math.max(start, run.startRssBytes);
    const within = run.maxPayloadBytes < 256 * 1024 && run.maxHistoryEvents < 25_000;
    rows.push({
      metric: `${run.allocations} allocations ${label}, batch ${size.batchSize}, ${run.executions} executions (continue-as-new every ${sizes.batchesPerExecution} batches): largest state / most history events in one execution (${run.status}, ${(run.wallMs / 1000).toFixed(0)} s)`,
      figure: `${kib(run.maxPayloadBytes)} / ${run.maxHistoryEvents}`,
      target: '< 256 KiB / < 25,000',
      nomadCli: '-',
      verdict: verdict(run.status === 'SUCCEEDED' && run.executions > 1 && within),
    });
  }
  rows.push({
    metric: `local engine peak memory in those runs (simulator in its own process; ${mib(start)} before a run, CDK synthesis included)`,
    figure: mib(peak),
    target: '< 1 GiB',
    nomadCli: '-',
    verdict: verdict(peak < 2 ** 30),
  });
  return rows;
}
