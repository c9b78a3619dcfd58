/**
 * Nomad requests per restarted allocation, counted by the simulator, for in-place and
 * `-reschedule` runs of the workflow (local engine) at several batch sizes; plus how long
 * planning a large job takes.
 * Prints numbers, never asserts (targets at batch >= 10: <= 1.2 requests per in-place
 * allocation, <= 2.5 per rescheduled one; Nomad's CLI makes 2 and >= 5).
 *
 *   npx tsx bench/engine-requests.ts [allocations] [planAllocations]
 */
import { arch, cpus, platform } from 'node:os';
import { pathToFileURL } from 'node:url';
import { NomadClient } from '../lib/nomad/index';
import type { Job } from '../lib/nomad/types';
import { validateRestartInput } from '../lib/restart/input';
import type { RestartOptions } from '../lib/restart/options';
import { planRestart } from '../lib/steps/index';
import { startSimulator } from '../sim/index';
import { measureLocalRun } from './local-engine';

/** What to measure. */
export interface EngineBenchOptions {
  /** Allocations of the restarted job. @default 100 */
  readonly allocations?: number;
  /** Batch sizes to try. @default [1, 10, 100] */
  readonly batchSizes?: readonly number[];
  /** Simulator time scale (real ms per simulated ms); larger is more realistic and slower. @default 0.01 */
  readonly timeScale?: number;
  /** Allocations of the job whose plan is timed; 0 skips it. @default 50000 */
  readonly planAllocations?: number;
}

/** One measured run. */
export interface EngineBenchRow {
  readonly mode: 'in-place' | 'reschedule';
  readonly batchSize: number;
  readonly allocations: number;
  /** Every `/v1` request of the run, planning included. */
  readonly requests: number;
  readonly requestsPerAllocation: number;
  readonly byRoute: Record<string, number>;
  readonly ms: number;
}

/** The benchmark's results. */
export interface EngineBenchResult {
  readonly rows: EngineBenchRow[];
  /** Time to plan `planAllocations` allocations (fetch, decode, sort, filter, batch), when measured. */
  readonly plan?: { readonly allocations: number; readonly ms: number; readonly fetchAllocationsMs: number };
}

const NODES = 10;

function job(id: string, count: number): Job {
  return {
    ID: id,
    Type: 'service',
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'web', Count: count, Tasks: [{ Name: 'main', Driver: 'mock_driver', Config: {} }] }],
  };
}

/** `-yes` options for the plan measurement, validated as the command validates its flags. */
function planOptions(jobId: string, batchSize: number): RestartOptions {
  return validateRestartInput(
    { job: jobId, batchSize: String(batchSize), yes: true },
    { interactive: false },
  );
}

async function measureRun(
  allocations: number,
  batchSize: number,
  reschedule: boolean,
  timeScale: number,
): Promise<EngineBenchRow> {
  const run = await measureLocalRun({
    allocations,
    batchSize: String(batchSize),
    reschedule,
    timeScale,
    nodes: NODES,
  });
  return {
    mode: reschedule ? 'reschedule' : 'in-place',
    batchSize,
    allocations,
    requests: run.requests,
    requestsPerAllocation: run.requests / allocations,
    byRoute: run.byRoute,
    ms: run.workflowMs,
  };
}

async function measurePlan(
  allocations: number,
): Promise<{ allocations: number; ms: number; fetchAllocationsMs: number }> {
  const sim = await startSimulator({
    scenario: {
      nodes: Array.from({ length: 100 }, (_, i) => ({ name: `node-${i}` })),
      jobs: [job('big', allocations)],
    },
  });
  const client = NomadClient.create({ address: sim.address });
  try {
    // The allocation list alone (transfer + decode) shows how much of the plan is the wire.
    const fetchStarted = performance.now();
    await client.jobs().allocations('big');
    const fetchAllocationsMs = performance.now() - fetchStarted;
    const started = performance.now();
    await planRestart(client, planOptions('big', 10), { emit: () => {}, now: Date.now });
    return { allocations, ms: performance.now() - started, fetchAllocationsMs };
  } finally {
    await client.close();
    await sim.close();
  }
}

/** Runs the benchmark; a smoke test calls it with tiny sizes. */
export async function runEngineRequestsBench(opts: EngineBenchOptions = {}): Promise<EngineBenchResult> {
  const allocations = opts.allocations ?? 100;
  const rows: EngineBenchRow[] = [];
  for (const reschedule of [false, true]) {
    for (const batchSize of opts.batchSizes ?? [1, 10, 100]) {
      rows.push(
        await measureRun(allocations, Math.min(batchSize, allocations), reschedule, opts.timeScale ?? 0.01),
      );
    }
  }
  const planAllocations = opts.planAllocations ?? 50_000;
  return planAllocations > 0 ? { rows, plan: await measurePlan(planAllocations) } : { rows };
}

function print(result: EngineBenchResult): void {
  console.log(`node ${process.version} ${platform()}/${arch()} ${cpus()[0]?.model ?? '?'} x${cpus().length}`);
  console.log('mode        batch  allocs  requests  per-alloc  ms');
  for (const row of result.rows) {
    console.log(
      `${row.mode.padEnd(10)}  ${String(row.batchSize).padStart(5)}  ${String(row.allocations).padStart(6)}  ${String(row.requests).padStart(8)}  ${row.requestsPerAllocation.toFixed(2).padStart(9)}  ${row.ms.toFixed(0)}`,
    );
  }
  for (const row of result.rows) {
    console.log(`  ${row.mode} batch ${row.batchSize}: ${JSON.stringify(row.byRoute)}`);
  }
  if (result.plan) {
    console.log(
      `plan of ${result.plan.allocations} allocations: ${result.plan.ms.toFixed(0)} ms (target < 2000), of which ~${result.plan.fetchAllocationsMs.toFixed(0)} ms is fetching and decoding the allocation list`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [allocations, planAllocations] = process.argv.slice(2).map(Number);
  print(
    await runEngineRequestsBench({
      ...(allocations ? { allocations } : {}),
      ...(planAllocations !== undefined && !Number.isNaN(planAllocations) ? { planAllocations } : {}),
    }),
  );
}
