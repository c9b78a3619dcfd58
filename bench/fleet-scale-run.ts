/**
 * One fleet scale run of the local engine, in a process of its own so its peak memory is the
 * engine's alone: argv is the simulator's address, the state machines (a JSON file), the budget
 * (`-max-jobs`) and the batch size. It measures, each phase apart on the simulator's counters:
 * one job of the fleet restarted by the one-job state machine (the per-allocation baseline), the
 * fleet's plan alone (a dry run: its time, its requests, the engine's heap after it), then the
 * whole fleet. Prints the figures as one JSON line.
 */
import { readFileSync } from 'node:fs';
import { runRestartLocally } from '../lib/engines/local/engine';
import { runFleetLocally } from '../lib/engines/local/fleet-engine';
import type { LocalDefinitions } from '../lib/engines/local/local-definition';
import type { ExecutionStats } from '../lib/engines/local/stats';
import { toRestartInput, validateRestartInput } from '../lib/restart/input';

const [address = '', machineFile = '', maxJobs = '1', batchSize = '1'] = process.argv.slice(2);
process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';
const stateMachines = JSON.parse(readFileSync(machineFile, 'utf8')) as LocalDefinitions;
const noQuestions = async () => ({ kind: 'read-error', text: 'EOF' }) as const;

/** The simulator's control API (sim/README.md): counters and request rates. */
async function control<T>(method: 'GET' | 'DELETE', path: string): Promise<T> {
  const response = await fetch(`${address}/_sim/${path}`, { method });
  return (await response.json()) as T;
}
const requestsSoFar = async () => (await control<Record<string, number>>('GET', 'counters'))['total'] ?? 0;

// 1. The baseline: one job of the fleet, restarted by the one-job state machine.
await control('DELETE', 'counters');
let singleAllocations = 0;
const single = await runRestartLocally({
  input: toRestartInput(
    validateRestartInput({ job: 'svc-00000', batchSize, yes: true }, { interactive: false }),
  ),
  nomad: { address },
  emit: (event) => {
    if (event.type === 'allocation-restarting') singleAllocations++;
  },
  prompt: noQuestions,
  stateMachine: stateMachines,
});
const singleResult = await single.result;
const singleRequests = await requestsSoFar();

// 2. The fleet's plan alone: a dry run selects, classifies, orders and writes the item list.
const fleetInput = { namespace: '*', maxJobs: Number(maxJobs), batchSize, yes: true };
await control('DELETE', 'counters');
let planned = { jobs: 0, allocations: 0, skipped: 0 };
const planStarted = performance.now();
const dryRun = await runFleetLocally({
  input: { ...fleetInput, dryRun: true },
  nomad: { address },
  emit: (event) => {
    if (event.type === 'fleet-planned') {
      planned = { jobs: event.jobs, allocations: event.allocations, skipped: event.skipped.length };
    }
  },
  prompt: noQuestions,
  stateMachines,
});
await dryRun.result;
const planMs = performance.now() - planStarted;
const planRequests = await requestsSoFar();
const planHeapBytes = process.memoryUsage().heapUsed;

// 3. The whole fleet.
await control('DELETE', 'counters');
const started = performance.now();
let restartedAllocations = 0;
const fleet = await runFleetLocally({
  input: fleetInput,
  nomad: { address },
  emit: (event) => {
    if (event.type === 'allocation-restarting') restartedAllocations++;
  },
  prompt: noQuestions,
  stateMachines,
});
const result = await fleet.result;
const wallMs = performance.now() - started;
const rates = await control<{ peakPerSecond: number; byFamily: Record<string, number> }>('GET', 'rates');
const fleetRequests = await requestsSoFar();
const largest = (stats: readonly ExecutionStats[]) => Math.max(0, ...stats.map((s) => s.maxPayloadBytes));
const mostEvents = (stats: readonly ExecutionStats[]) => Math.max(0, ...stats.map((s) => s.maxHistoryEvents));
process.stdout.write(
  `${JSON.stringify({
    status: result.status,
    planned,
    planMs,
    planRequests,
    planHeapBytes,
    singleStatus: singleResult.status,
    singleRequests,
    singleAllocations,
    wallMs,
    restartedAllocations,
    fleetRequests,
    peakRequestsPerSecond: rates.peakPerSecond,
    requestsByFamily: rates.byFamily,
    fleetHistoryEvents: result.stats.maxHistoryEvents,
    maxItemHistoryEvents: mostEvents(result.items.map((i) => i.stats)),
    maxJobHistoryEvents: mostEvents(result.jobs.map((j) => j.stats)),
    maxPayloadBytes: largest([
      result.stats,
      ...result.items.map((i) => i.stats),
      ...result.jobs.map((j) => j.stats),
    ]),
    jobsSucceeded: result.jobs.filter((j) => j.status === 'SUCCEEDED').length,
    // Kilobytes on Linux: the process's peak resident memory over its whole life.
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  })}\n`,
);
