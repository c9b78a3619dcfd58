/**
 * `npm run bench`: what users pay for, in one run — Nomad requests, replacement detection
 * latency, orchestration overhead, state transitions, dollars, plan time and memory, payload
 * and history — against targets and the Nomad CLI's own figures. Prints a table, writes its
 * report under `default` in `bench/results.json`, and `bench/scaling.svg`. Measures; never fails
 * on a timing.
 *
 *   npm run bench              full sizes (within 5 minutes on 2 cores)
 *   npm run bench:scale        the 50,000-allocation restarts through continue-as-new (bench/scale.ts)
 *                              and a 5,000-job fleet (bench/fleet-scale.ts;
 *                              several minutes), under `scale` in `bench/results.json`
 *   npm run bench -- smoke     tiny sizes of the first (what the test suite runs); `bench:scale -- smoke` too
 */
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { NomadClient } from '../lib/nomad/index';
import { validateRestartInput } from '../lib/restart/input';
import { planRestart } from '../lib/steps/index';
import { readAllocationsToPlan } from '../lib/steps/kit/job-allocations-read';
import { startSimulator } from '../sim/index';
import { measureStartToExit } from './cli-start-to-exit';
import { runEngineRequestsBench } from './engine-requests';
import { type FleetScaleSize, fleetScaleRows } from './fleet-scale';
import { measureHealthGate } from './health-gate';
import { measureWorstMix, type WorstMixSizes } from './history-worst-mix';
import { installPackage } from './installed-package';
import { type LocalRunMeasure, measureLocalRun } from './local-engine';
import { PRICES } from './prices';
import { formatTable, machine, type ReportRow, scalingSvg, verdict } from './report';
import { type ScaleSizes, scaleRows } from './scale';

export interface BenchSizes {
  readonly requestAllocations: number;
  readonly costAllocations: number;
  readonly overheadAllocations: number;
  readonly planSizes: readonly number[];
  readonly scalingSizes: readonly number[];
  readonly latencyAllocations: number;
  /** Paired rounds of each start-to-exit case (a subprocess per command each, bench/cli-start-to-exit.ts). */
  readonly startRuns: number;
  /** Whether the start-to-exit rows are measured from a packed and installed package too (a build). */
  readonly installedPackage: boolean;
  /** Allocations of the worst-case run whose every restart fails with a long message. */
  readonly failingAllocations: number;
  /** Allocations and batch size of the runs with and without `-wait-healthy`. */
  readonly healthGate: { readonly allocations: number; readonly batchSize: number };
  /** The worst mix for the history limit (bench/history-worst-mix.ts). */
  readonly worstMix: WorstMixSizes;
}

export const FULL: BenchSizes = {
  requestAllocations: 100,
  costAllocations: 1000,
  overheadAllocations: 1000,
  planSizes: [1000, 10_000, 50_000],
  scalingSizes: [100, 1000, 10_000],
  latencyAllocations: 10,
  startRuns: 11,
  installedPackage: true,
  failingAllocations: 600,
  healthGate: { allocations: 50, batchSize: 10 },
  // About 40,000 history events: each phase stays under the 1,000 slices per execution (a
  // health wait runs a few dozen slices past the check's turn, more on a loaded machine).
  worstMix: { batches: 3, awaitSlices: 950, healthSlices: 850 },
};

export const SMOKE: BenchSizes = {
  requestAllocations: 10,
  costAllocations: 20,
  overheadAllocations: 20,
  planSizes: [100],
  scalingSizes: [10, 20],
  latencyAllocations: 2,
  startRuns: 1,
  installedPackage: false,
  failingAllocations: 10,
  healthGate: { allocations: 4, batchSize: 2 },
  worstMix: { batches: 1, awaitSlices: 5, healthSlices: 5 },
};

/** `npm run bench:scale`: the large restarts through continue-as-new (bench/scale.ts), and a fleet (bench/fleet-scale.ts). */
export const SCALE_FULL: ScaleSizes & { readonly fleet: FleetScaleSize } = {
  // 500 batches: the deployable 200 per execution makes 3 executions.
  inPlace: { allocations: 50_000, batchSize: 100, batchesPerExecution: 200 },
  // 100 batches, 25 per execution: 4 executions. Each row says how long its run took.
  reschedule: { allocations: 50_000, batchSize: 500, batchesPerExecution: 25 },
  // 200,000 allocations; 20 jobs at once; each job in two batches of 20.
  fleet: { jobs: 5000, allocationsPerJob: 40, namespaces: 5, maxJobs: 20, batchSize: '50%' },
};

export const SCALE_SMOKE: ScaleSizes & { readonly fleet: FleetScaleSize } = {
  inPlace: { allocations: 200, batchSize: 10, batchesPerExecution: 3 },
  reschedule: { allocations: 100, batchSize: 20, batchesPerExecution: 3 },
  fleet: { jobs: 12, allocationsPerJob: 4, namespaces: 2, maxJobs: 3, batchSize: '50%' },
};

const FAST = 0.01;
const PLAN_RUNS = 3;
const OVERHEAD_RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

function cost(run: LocalRunMeasure): number {
  const gbSeconds = (run.workflowMs / 1000) * PRICES.lambdaMemoryGb;
  const dollars =
    run.states * PRICES.stepFunctionsPerTransition +
    run.lambdaInvocations * PRICES.lambdaPerRequest +
    gbSeconds * PRICES.lambdaArmPerGbSecond;
  return (dollars * 1000) / run.allocations;
}

/** A GC'd heap baseline: `--expose-gc` switched on at run time, so `npm run bench` needs no flag. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc === 'function') gc();
}

/**
 * Plans a restart of one job of `allocations` allocations: end to end through the simulator and
 * the client, and apart from it what the simulator spends serialising the allocation list the
 * plan read (the same `JSON.stringify` of the same list), which on a real cluster is Nomad's own work.
 */
async function measurePlan(allocations: number) {
  const sim = await startSimulator({
    scenario: {
      nodes: Array.from({ length: 100 }, (_, i) => ({ name: `node-${i}` })),
      jobs: [
        {
          ID: 'big',
          Type: 'service',
          TaskGroups: [{ Name: 'web', Count: allocations, Tasks: [{ Name: 'main' }] }],
        },
      ],
    },
  });
  const client = NomadClient.create({ address: sim.address });
  try {
    const options = validateRestartInput({ job: 'big', batchSize: '10', yes: true }, { interactive: false });
    // Median of a few plans on one simulator: one run on a shared 2-core machine is mostly noise.
    const times: number[] = [];
    let heapMb = 0;
    for (let run = 0; run < PLAN_RUNS; run++) {
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      await planRestart(client, options, { emit: () => undefined, now: Date.now });
      times.push(performance.now() - started);
      // Before any GC: the heap the plan left behind, garbage included (a peak, roughly).
      heapMb = Math.max(heapMb, (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20);
    }
    const ms = median(times);
    // The list the plan read: from 1,000 allocations on, filtered to the job without task states.
    const definition = (await client.jobs().info('big')).value;
    const list: unknown = (await readAllocationsToPlan(client, { id: 'big', definition }, { tasks: [] }, {}))
      .value;
    const serialiseStarted = performance.now();
    const bytes = JSON.stringify(list).length;
    const serialiseMs = performance.now() - serialiseStarted;
    return { allocations, ms, fastestMs: Math.min(...times), heapMb, serialiseMs, bytes };
  } finally {
    await client.close();
    await sim.close();
  }
}

/** Timings move with what else the machine runs: a report says how busy it was. */
function machineNow(): string {
  const load = loadavg().map((n) => n.toFixed(1));
  return `${machine()}, load average ${load.join(' / ')} (1 / 5 / 15 min) before the run`;
}

export async function runBench(sizes: BenchSizes) {
  const machineBefore = machineNow();
  const installed = sizes.installedPackage ? await installPackage() : undefined;
  const rows: ReportRow[] = [];
  try {
    rows.push(...(await measureStartToExit(sizes.startRuns, installed)));
  } finally {
    await installed?.close();
  }
  const engine = await runEngineRequestsBench({
    allocations: sizes.requestAllocations,
    batchSizes: [1, 10, 100],
    planAllocations: 0,
  });
  for (const mode of ['in-place', 'reschedule'] as const) {
    const limit = mode === 'in-place' ? 1.2 : 2.5;
    for (const row of engine.rows.filter((r) => r.mode === mode)) {
      rows.push({
        metric: `Nomad requests per ${mode} allocation, batch ${row.batchSize}`,
        figure: fmt(row.requestsPerAllocation),
        target: row.batchSize >= 10 ? `≤ ${limit}` : '-',
        nomadCli: mode === 'in-place' ? '2 (derived)' : '≥ 5 (derived)',
        verdict: verdict(row.batchSize >= 10 ? row.requestsPerAllocation <= limit : undefined),
      });
    }
  }

  rows.push(...(await measureHealthGate(sizes.healthGate)));

  const latency = await measureLocalRun({
    allocations: sizes.latencyAllocations,
    batchSize: String(sizes.latencyAllocations),
    reschedule: true,
    timeScale: 1,
  });
  rows.push({
    metric: 'replacement detection latency (median)',
    figure: `${fmt(latency.replacementLatencyMs ?? Number.NaN, 0)} ms`,
    target: '≤ 50 ms',
    nomadCli: 'blocking query per allocation (same order)',
    verdict: verdict((latency.replacementLatencyMs ?? Number.POSITIVE_INFINITY) <= 50),
  });

  // The median of a few runs: one run on a shared 2-core machine swings by a factor of 3.
  const overheadRuns: LocalRunMeasure[] = [];
  for (let i = 0; i < OVERHEAD_RUNS; i++) {
    overheadRuns.push(
      await measureLocalRun({
        allocations: sizes.overheadAllocations,
        batchSize: '50',
        reschedule: false,
        timeScale: FAST,
      }),
    );
  }
  const overhead = overheadRuns[0] as LocalRunMeasure;
  const perBatch = overheadRuns.map((r) => (r.workflowMs - r.stepsMs) / Math.max(1, r.batches));
  const perBatchMs = median(perBatch);
  rows.push({
    metric: `orchestration overhead per batch (${overhead.allocations} allocs, batch 50, median of ${OVERHEAD_RUNS})`,
    figure: `${fmt(perBatchMs, 1)} ms (fastest ${fmt(Math.min(...perBatch), 1)})`,
    target: '≤ 10 ms',
    nomadCli: '0 (in-process loop)',
    verdict: verdict(perBatchMs <= 10),
  });
  const wallMs = median(overheadRuns.map((r) => r.workflowMs));
  rows.push({
    metric: `wall time of that restart through the local engine (${overhead.batches} batches)`,
    figure: `${fmt(wallMs, 0)} ms`,
    target: '< 10 s',
    nomadCli: '-',
    verdict: verdict(wallMs < 10_000),
  });

  const inPlace = await measureLocalRun({
    allocations: sizes.costAllocations,
    batchSize: '10',
    reschedule: false,
    timeScale: FAST,
  });
  const resched = await measureLocalRun({
    allocations: sizes.costAllocations,
    batchSize: '10',
    reschedule: true,
    timeScale: FAST,
  });
  const perAllocation = (overhead.statesPerBatch - inPlace.statesPerBatch) / (50 - 10);
  rows.push({
    metric: 'state transitions per batch (in place / reschedule)',
    figure: `${fmt(inPlace.statesPerBatch)} / ${fmt(resched.statesPerBatch)}`,
    target: '≤ 10',
    nomadCli: '-',
    verdict: verdict(Math.max(inPlace.statesPerBatch, resched.statesPerBatch) <= 10),
  });
  rows.push({
    metric: 'state transitions per allocation (batch 50 vs 10)',
    figure: fmt(perAllocation),
    target: '0',
    nomadCli: '-',
    verdict: verdict(Math.abs(perAllocation) < 0.01),
  });
  for (const [label, run] of [
    ['in place', inPlace],
    ['reschedule', resched],
  ] as const) {
    rows.push({
      metric: `cost per 1,000 allocations at batch 10, ${label} (${run.states} transitions)`,
      figure: `$${fmt(cost(run), 4)}`,
      target: '≤ $0.01',
      nomadCli: '$0 (a laptop)',
      verdict: verdict(cost(run) <= 0.01),
    });
  }

  for (const size of sizes.planSizes) {
    const plan = await measurePlan(size);
    rows.push({
      metric: `plan time (median of ${PLAN_RUNS}) and heap, ${size} allocations (${fmt(plan.bytes / 2 ** 20, 0)} MB list)`,
      figure: `${fmt(plan.ms, 0)} ms (fastest ${fmt(plan.fastestMs, 0)}), ${fmt(plan.heapMb, 0)} MB`,
      target: size >= 50_000 ? '< 2 s, < 512 MB' : '-',
      nomadCli: '-',
      verdict: verdict(size >= 50_000 ? plan.ms < 2000 && plan.heapMb < 512 : undefined),
    });
    if (size === Math.max(...sizes.planSizes))
      rows.push({
        metric: `  of which the simulator serialising the list (Nomad's own work on a cluster) / ours`,
        figure: `${fmt(plan.serialiseMs, 0)} ms / ${fmt(plan.ms - plan.serialiseMs, 0)} ms`,
        target: '-',
        nomadCli: '-',
        verdict: 'info',
      });
  }

  const scaling: {
    allocations: number;
    ms: number;
    requests: number;
    historyEvents: number;
    maxPayloadBytes: number;
  }[] = [];
  for (const size of sizes.scalingSizes) {
    const run = await measureLocalRun({
      allocations: size,
      batchSize: '10%',
      reschedule: false,
      timeScale: FAST,
    });
    scaling.push({
      allocations: size,
      ms: run.workflowMs,
      requests: run.requests,
      historyEvents: run.historyEvents,
      maxPayloadBytes: run.maxPayloadBytes,
    });
  }
  const largest = scaling.at(-1);
  if (largest !== undefined) {
    rows.push({
      metric: `largest state payload / history events per execution (${largest.allocations} allocs, batch 10%)`,
      figure: `${fmt(largest.maxPayloadBytes / 1024, 1)} KiB / ${largest.historyEvents}`,
      target: '< 256 KiB / < 25,000',
      nomadCli: '-',
      verdict: verdict(largest.maxPayloadBytes < 256 * 1024 && largest.historyEvents < 25_000),
    });
  }
  // The worst case for the state's size (#19 item 3): every restart fails with ~500 bytes.
  const failing = await measureLocalRun({
    allocations: sizes.failingAllocations,
    batchSize: '100',
    reschedule: false,
    timeScale: FAST,
    nodes: 10,
    faults: (control) =>
      control.injectFault({ pathSuffix: '/restart', status: 500, body: `rpc error: ${'x'.repeat(490)}` }),
  });
  rows.push({
    metric: `largest state payload / most history events in one execution, every restart failing (${sizes.failingAllocations} allocs, 500-byte errors)`,
    figure: `${fmt(failing.maxPayloadBytes / 1024, 1)} KiB / ${failing.maxHistoryEvents}`,
    target: '< 256 KiB / < 25,000',
    nomadCli: '-',
    verdict: verdict(failing.maxPayloadBytes < 256 * 1024 && failing.maxHistoryEvents < 25_000),
  });
  rows.push(await measureWorstMix(sizes.worstMix));
  return { machine: machineBefore, date: new Date().toISOString(), rows, scaling };
}

/** `npm run bench:scale`: the scale rows alone, each run in processes of its own. */
export async function runScaleBench(sizes: ScaleSizes & { readonly fleet: FleetScaleSize }) {
  const machineBefore = machineNow();
  const rows = [...(await scaleRows(sizes)), ...(await fleetScaleRows(sizes.fleet))];
  return { machine: machineBefore, date: new Date().toISOString(), rows };
}

/**
 * Writes `report` under `key` of `bench/results.json`, keeping the other keys: `npm run bench`
 * and `npm run bench:scale` each own one, run at different times.
 */
async function saveResults(key: 'default' | 'scale', report: object): Promise<void> {
  const file = join(here, 'results.json');
  const saved: Record<string, unknown> = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, unknown>,
    () => ({}),
  );
  await writeFile(file, `${JSON.stringify({ ...saved, [key]: report }, null, 2)}\n`);
}

const here = dirname(fileURLToPath(import.meta.url));
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const smoke = process.argv.includes('smoke');
  const sizesNote = smoke ? ' (smoke sizes)' : '';
  if (process.argv.includes('scale')) {
    const report = await runScaleBench(smoke ? SCALE_SMOKE : SCALE_FULL);
    console.log(`nomad-restart scale benchmarks, ${report.machine}, ${report.date}${sizesNote}`);
    console.log(formatTable(report.rows));
    if (!smoke) await saveResults('scale', report);
  } else {
    const report = await runBench(smoke ? SMOKE : FULL);
    console.log(`nomad-restart benchmarks, ${report.machine}, ${report.date}${sizesNote}`);
    console.log(formatTable(report.rows));
    console.log('\nscaling at batch 10% (local engine, simulator with zero latency):');
    for (const p of report.scaling)
      console.log(
        `  ${String(p.allocations).padStart(6)} allocations: ${fmt(p.ms, 0)} ms, ${p.requests} Nomad requests`,
      );
    console.log(`\nprices: ${PRICES.source}, ${PRICES.date}`);
    if (!smoke) {
      await saveResults('default', report);
      await writeFile(join(here, 'scaling.svg'), scalingSvg(report.scaling));
    }
  }
}
