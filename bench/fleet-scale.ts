/**
 * The fleet row of `npm run bench:scale`: a generated fleet (5,000 service jobs of 40 allocations
 * across 5 namespaces at full size) planned and restarted in place through the local engine's
 * fleet state machine (Distributed Map, each job a one-job child run) with `-max-jobs 20`,
 * against a simulator in its own process: plan time and heap, wall time, Nomad requests per
 * allocation beside the one-job command's for a job of the same size, the busiest second's
 * requests, the largest state and the fleet execution's own history (which must not grow with
 * the number of jobs), and the engine's peak memory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { NomadRestartStack } from '../lib/constructs/nomad-restart-stack';
import { extractStateMachineDefinition } from '../lib/engines/local/index';
import type { LocalDefinitions, LocalStateMachine } from '../lib/engines/local/local-definition';
import { STATE_MACHINE_ID_PREFIXES } from '../lib/engines/local/local-definition';
import { type ReportRow, verdict } from './report';
import { child } from './scale';

/** A fleet scale run's size. */
export interface FleetScaleSize {
  readonly jobs: number;
  readonly allocationsPerJob: number;
  readonly namespaces: number;
  /** `-max-jobs`. */
  readonly maxJobs: number;
  /** `-batch-size`, as the command takes it. */
  readonly batchSize: string;
}

/** What `bench/fleet-scale-run.ts` prints. */
interface FleetScaleMeasure {
  readonly status: string;
  readonly planned: { readonly jobs: number; readonly allocations: number; readonly skipped: number };
  readonly planMs: number;
  readonly planRequests: number;
  readonly planHeapBytes: number;
  readonly singleStatus: string;
  readonly singleRequests: number;
  readonly singleAllocations: number;
  readonly wallMs: number;
  readonly restartedAllocations: number;
  readonly fleetRequests: number;
  readonly peakRequestsPerSecond: number;
  readonly requestsByFamily: Readonly<Record<string, number>>;
  readonly fleetHistoryEvents: number;
  readonly maxItemHistoryEvents: number;
  readonly maxJobHistoryEvents: number;
  readonly maxPayloadBytes: number;
  readonly jobsSucceeded: number;
  readonly peakRssBytes: number;
}

/** Both state machines of the deployable stack, as the local engine runs them. */
function deployableDefinitions(): LocalDefinitions {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  new NomadRestartStack(app, 'NomadRestartFleetScale', {
    nomadAddress: 'https://nomad.example.internal:4646',
  });
  const template = app.synth().getStackByName('NomadRestartFleetScale').template as Record<string, unknown>;
  const pick = (logicalIdPrefix: string): LocalStateMachine => {
    const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(template, {
      logicalIdPrefix,
    });
    return { definition, stateMachineArn, functionTimeoutsMs };
  };
  return { ...pick(STATE_MACHINE_ID_PREFIXES.restart), fleet: pick(STATE_MACHINE_ID_PREFIXES.fleet) };
}

/** Runs one fleet of `size`, engine and simulator each in a process of its own. */
export async function measureFleetScale(size: FleetScaleSize): Promise<FleetScaleMeasure> {
  const dir = await mkdtemp(join(tmpdir(), 'nomad-restart-fleet-scale-'));
  const machineFile = join(dir, 'state-machines.json');
  await writeFile(machineFile, JSON.stringify(deployableDefinitions()));
  const sim = await child('./fleet-sim.ts', [
    String(size.jobs),
    String(size.allocationsPerJob),
    String(size.namespaces),
  ]);
  try {
    const run = await child('./fleet-scale-run.ts', [
      sim.line,
      machineFile,
      String(size.maxJobs),
      size.batchSize,
    ]);
    run.stop();
    return JSON.parse(run.line) as FleetScaleMeasure;
  } finally {
    sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The fleet's own record in its namespace's run history (docs/history.md): a read and a checked
 * write when "Plan fleet" starts it, again when "Summarize fleet" ends it. A dry run writes none,
 * so the plan's measured requests leave them out.
 */
const FLEET_RECORD_REQUESTS = 4;

/**
 * What a fleet's job reads at its first safe point that a run of its own skips there: its own
 * request variable and its fleet's request, since the fleet may have been paused or stopped before
 * the job took its lock (lib/steps/lock/control-read.ts); a run of its own reads neither within a
 * second of taking its lock.
 */
const FLEET_JOB_FIRST_CONTROL_READS = 2;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const perAllocation = (requests: number, allocations: number) =>
  allocations === 0 ? 'n/a' : (requests / allocations).toFixed(2);

/** The fleet rows: one run, read several ways. */
export async function fleetScaleRows(size: FleetScaleSize): Promise<ReportRow[]> {
  const run = await measureFleetScale(size);
  const allocations = size.jobs * size.allocationsPerJob;
  const label = `fleet of ${size.jobs} jobs / ${allocations} allocations (${size.namespaces} namespaces), -max-jobs ${size.maxJobs}, batch ${size.batchSize}`;
  const fleetPerAllocation = run.fleetRequests / Math.max(1, run.restartedAllocations);
  const singlePerAllocation = run.singleRequests / Math.max(1, run.singleAllocations);
  const everyJob = run.status === 'SUCCEEDED' && run.jobsSucceeded === run.planned.jobs;
  return [
    {
      metric: `${label}: plan time, Nomad requests and engine heap (a dry run: ${run.planned.jobs} jobs, ${run.planned.allocations} allocations, ${run.planned.skipped} skipped)`,
      figure: `${(run.planMs / 1000).toFixed(1)} s, ${run.planRequests} requests, ${mib(run.planHeapBytes)}`,
      target: '-',
      nomadCli: '-',
      verdict: verdict(run.planned.jobs === size.jobs),
    },
    {
      metric: `${label}: wall time of the whole run through the local engine (${run.status}, ${run.jobsSucceeded} of ${run.planned.jobs} jobs succeeded, ${run.restartedAllocations} allocations restarted)`,
      figure: `${(run.wallMs / 1000).toFixed(0)} s`,
      target: '-',
      nomadCli: '-',
      verdict: verdict(everyJob && run.restartedAllocations === run.planned.allocations),
    },
    {
      metric: `${label}: Nomad requests per allocation, the fleet (plan listing included) / one job of ${size.allocationsPerJob} by the one-job state machine`,
      figure: `${perAllocation(run.fleetRequests, run.restartedAllocations)} / ${perAllocation(run.singleRequests, run.singleAllocations)}`,
      target: "fleet ≤ one job + the listing + the fleet's record + each job's first control read",
      nomadCli: '-',
      verdict: verdict(
        fleetPerAllocation <=
          singlePerAllocation +
            (run.planRequests + 1 + FLEET_RECORD_REQUESTS + FLEET_JOB_FIRST_CONTROL_READS * size.jobs) /
              Math.max(1, allocations),
      ),
    },
    {
      metric: `${label}: peak Nomad requests in one second (by family over the run: ${Object.entries(
        run.requestsByFamily,
      )
        .map(([family, count]) => `${family} ${count}`)
        .join(', ')})`,
      figure: String(run.peakRequestsPerSecond),
      target: '-',
      nomadCli: '-',
      verdict: 'info',
    },
    {
      metric: `${label}: largest state / history events of the fleet execution / most of one item / most of one job`,
      figure: `${kib(run.maxPayloadBytes)} / ${run.fleetHistoryEvents} / ${run.maxItemHistoryEvents} / ${run.maxJobHistoryEvents}`,
      target: '< 256 KiB / < 25,000 each',
      nomadCli: '-',
      verdict: verdict(
        run.maxPayloadBytes < 256 * 1024 &&
          Math.max(run.fleetHistoryEvents, run.maxItemHistoryEvents, run.maxJobHistoryEvents) < 25_000,
      ),
    },
    {
      metric: `${label}: local engine peak memory (engine and simulator each in a process of its own)`,
      figure: mib(run.peakRssBytes),
      target: '-',
      nomadCli: '-',
      verdict: 'info',
    },
  ];
}
