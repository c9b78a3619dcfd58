/**
 * "Plan fleet" at scale: `npx tsx bench/fleet-plan.ts [jobs] [allocations per job]` (default
 * 5,000 × 40 = 200,000 allocations, the simulator's generated fleet of `bench/fleet-sim.ts`, in a
 * process of its own) plans every job of every namespace (`namespace: '*'`) and prints the plan's
 * wall time, the planner's peak memory and the Nomad requests it made. A measured report, not a
 * pass/fail timing.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import { NomadClient } from '../lib/nomad/client';
import { planFleetStep } from '../lib/steps/fleet/plan-fleet-step';
import { MemoryPlanStore } from '../lib/stores/plan-store';

const jobs = Number(process.argv[2] ?? 5_000);
const perJob = Number(process.argv[3] ?? 40);

const simStarted = Date.now();
const proc = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('./fleet-sim.ts', import.meta.url).pathname, String(jobs), String(perJob)],
  { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
);
if (proc.stdout === null) throw new Error('fleet-sim: no stdout');
const [address] = (await once(createInterface({ input: proc.stdout }), 'line')) as [string];
const seededMs = Date.now() - simStarted;

const nomad = NomadClient.create({ address: address.trim() });
const rssBefore = process.memoryUsage().rss;
let peakRss = rssBefore;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
const cpuBefore = process.cpuUsage();
const started = performance.now();
const state = await planFleetStep(
  { nomad, planStore: new MemoryPlanStore(), now: Date.now },
  {
    input: { namespace: '*', maxJobs: 20, yes: true },
    executionId: 'bench',
    executionName: 'bench',
    startTime: new Date().toISOString(),
  },
);
const wallMs = performance.now() - started;
// The planner's own CPU: the rest of the wall time is Nomad's (the simulator's) answering.
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
// The simulator's request log: every request the plan made (the scenario was seeded in-process).
const requests = ((await (await fetch(`${address.trim()}/_sim/requests`)).json()) as unknown[]).length;
process.stdout.write(
  `${JSON.stringify({
    node: process.version,
    cpus: cpus().length,
    jobs,
    allocations: jobs * perJob,
    selectedJobs: state.plan.jobs,
    selectedAllocations: state.plan.allocations,
    simSeedMs: seededMs,
    planWallMs: Math.round(wallMs),
    planCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    peakRssMiB: Math.round(peakRss / 2 ** 20),
    rssGrowthMiB: Math.round((peakRss - rssBefore) / 2 ** 20),
    nomadRequests: requests,
  })}\n`,
);
await nomad.close();
proc.disconnect();
