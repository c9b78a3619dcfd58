/**
 * The scale rows of `npm run bench`: a 50,000-allocation job restarted in place at batch size 100
 * and with `-reschedule` at batch 500, through the local engine and continue-as-new (a stack
 * synthesized with a few batches per execution), against a simulator in its own process: the
 * largest state payload, the most history events in one execution, and the engine's peak memory.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { App } from 'aws-cdk-lib';
import { NomadRestartStack } from '../lib/constructs/nomad-restart-stack';
import { extractStateMachineDefinition } from '../lib/engines/local/index';
import type { LocalStateMachine } from '../lib/engines/local/local-definition';
import { type ReportRow, verdict } from './report';

/** One scale run's figures (bench/scale-run.ts prints them). */
export interface ScaleMeasure {
  readonly allocations: number;
  readonly batchSize: number;
  readonly reschedule: boolean;
  readonly status: string;
  readonly executions: number;
  readonly maxPayloadBytes: number;
  readonly maxHistoryEvents: number;
  /** Peak resident memory of the engine's process over the run. */
  readonly peakRssBytes: number;
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
  const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(template, {
    logicalIdPrefix: 'RestartStateMachine',
  });
  return { definition, stateMachineArn, functionTimeoutsMs };
}

/** Runs a bench script in a process of its own; resolves its first line of output, then `stop` ends it. */
async function child(script: string, args: readonly string[]) {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', new URL(script, import.meta.url).pathname, ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  if (proc.stdout === null) throw new Error(`${script}: no stdout`);
  const [line] = (await once(createInterface({ input: proc.stdout }), 'line')) as [string];
  return { line: line.trim(), stop: () => proc.connected && proc.disconnect() };
}

/** Restarts a fresh job of `allocations` through `stateMachine`, engine and simulator each apart. */
export async function measureScale(opts: {
  allocations: number;
  batchSize: number;
  reschedule: boolean;
  stateMachine: LocalStateMachine;
}): Promise<ScaleMeasure> {
  const dir = await mkdtemp(join(tmpdir(), 'nomad-restart-scale-'));
  const machineFile = join(dir, 'state-machine.json');
  await writeFile(machineFile, JSON.stringify(opts.stateMachine));
  const sim = await child('./scale-sim.ts', [String(opts.allocations)]);
  try {
    const mode = opts.reschedule ? 'reschedule' : 'in-place';
    const run = await child('./scale-run.ts', [
      sim.line,
      machineFile,
      String(opts.allocations),
      String(opts.batchSize),
      mode,
    ]);
    run.stop();
    return JSON.parse(run.line) as ScaleMeasure;
  } finally {
    sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The scale rows' sizes: each run restarts `allocations` at `batchSize`. */
export interface ScaleSizes {
  readonly inPlace: ScaleRun;
  readonly reschedule: ScaleRun;
}

/** One scale restart: its size, batch size, and how often it continues as new (the default is 200). */
export interface ScaleRun {
  readonly allocations: number;
  readonly batchSize: number;
  readonly batchesPerExecution: number;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

/** Runs both scale restarts and reports payload, history, executions and the engine's memory. */
export async function scaleRows(sizes: ScaleSizes): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  let peak = 0;
  // One synthesis per setting: a CDK synthesis takes seconds (the smoke sizes share one).
  const stacks = new Map<number, LocalStateMachine>();
  for (const [label, size, reschedule] of [
    ['in place', sizes.inPlace, false],
    ['-reschedule', sizes.reschedule, true],
  ] as const) {
    const stateMachine =
      stacks.get(size.batchesPerExecution) ?? stackContinuingEvery(size.batchesPerExecution);
    stacks.set(size.batchesPerExecution, stateMachine);
    const run = await measureScale({ ...size, reschedule, stateMachine });
    peak = Math.max(peak, run.peakRssBytes);
    const within = run.maxPayloadBytes < 256 * 1024 && run.maxHistoryEvents < 25_000;
    rows.push({
      metric: `${run.allocations} allocations ${label}, batch ${size.batchSize}, ${run.executions} executions (continue-as-new every ${size.batchesPerExecution} batches): largest state / most history events in one execution (${run.status}, ${(run.wallMs / 1000).toFixed(0)} s)`,
      figure: `${kib(run.maxPayloadBytes)} / ${run.maxHistoryEvents}`,
      target: '< 256 KiB / < 25,000',
      nomadCli: '-',
      verdict: verdict(run.status === 'SUCCEEDED' && run.executions > 1 && within),
    });
  }
  rows.push({
    metric: 'local engine peak memory in those runs (engine and simulator each in a process of its own)',
    figure: mib(peak),
    target: '< 1 GiB',
    nomadCli: '-',
    verdict: verdict(peak < 2 ** 30),
  });
  return rows;
}
