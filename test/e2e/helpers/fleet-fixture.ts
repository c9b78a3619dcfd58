/**
 * A realistic small fleet on the simulator, with ACLs on and the command holding the README's
 * policy in every namespace plus what a fleet reads (`node:read`, node pools), and what the fleet
 * tests read back from the simulator's request log: which jobs' allocations were restarted, and
 * how many jobs were in flight at once (a job is in flight from its first request on its lock
 * variable to its last one: the lock is taken before its first batch and released after its last
 * line).
 */
import type { Job } from '../../../lib/nomad/types';
import type { RequestLogEntry } from '../../../sim/index';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmeFleetPolicyToken } from '../../fixtures/readme-policy';
import { type Harness, simpleJob, startHarness } from '../../steps/helpers/harness';

/** A service job of `count` allocations in `namespace` with `Meta.team`. */
export function teamJob(
  id: string,
  namespace: string,
  team: string,
  count = 2,
  extra: Partial<Job> = {},
): Job {
  return { ...simpleJob(id, 'service', count, 'web'), Namespace: namespace, Meta: { team }, ...extra };
}

/** The simulator with `jobs` running, ACLs on. */
export async function openFleet(setup: {
  readonly namespaces: string[];
  readonly jobs: Job[];
  readonly nodes?: { name: string; pool?: string; datacenter?: string }[];
}): Promise<Harness> {
  const all = ['default', ...setup.namespaces];
  return startHarness({
    namespaces: setup.namespaces,
    nodes: setup.nodes ?? [{ name: 'node1' }, { name: 'node2' }],
    jobs: setup.jobs,
    acl: {
      enabled: true,
      tokens: [readmeFleetPolicyToken(all), { secret: MANAGEMENT_TOKEN, management: true }],
    },
  });
}

/** The command's environment: the simulator, and the operator's token. */
export const fleetEnv = (h: Harness) => ({ NOMAD_ADDR: h.sim.address, NOMAD_TOKEN: OPERATOR_TOKEN });

const LOCK_PATH = /^\/v1\/var\/nomad-restart\/locks\/(.+)$/;
const RESTART_PATH = /^\/v1\/client\/allocation\/([^/]+)\/restart$/;

const namespaceOf = (entry: RequestLogEntry) =>
  new URLSearchParams(entry.query).get('namespace') ?? 'default';

/** `<namespace>/<job>` of each job whose allocations got a restart request, sorted. */
export function restartedJobs(h: Harness): string[] {
  const jobOf = new Map(
    h.sim.control
      .state()
      .allocations()
      .map((a) => [a.ID, `${a.Namespace}/${a.JobID}`]),
  );
  const jobs = new Set<string>();
  for (const entry of h.sim.control.requestLog()) {
    const id = RESTART_PATH.exec(entry.path)?.[1];
    if (entry.method === 'PUT' && id !== undefined) jobs.add(jobOf.get(id) ?? id);
  }
  return [...jobs].sort();
}

/** The node of each allocation that got a restart request. */
export function restartedNodes(h: Harness): string[] {
  const nodeOf = new Map(
    h.sim.control
      .state()
      .allocations()
      .map((a) => [a.ID, a.NodeID]),
  );
  return h.sim.control
    .requestLog()
    .flatMap((e) => {
      const id = RESTART_PATH.exec(e.path)?.[1];
      return e.method === 'PUT' && id !== undefined ? [nodeOf.get(id) ?? id] : [];
    })
    .sort();
}

/** Each job's time in flight, `[first, last]` request on its lock variable, in start order. */
export function inFlight(h: Harness): { job: string; from: number; to: number }[] {
  const windows = new Map<string, { job: string; from: number; to: number }>();
  for (const entry of h.sim.control.requestLog()) {
    const lock = LOCK_PATH.exec(entry.path)?.[1];
    if (lock === undefined) continue;
    const job = `${namespaceOf(entry)}/${decodeURIComponent(lock)}`;
    const w = windows.get(job);
    if (w === undefined) windows.set(job, { job, from: entry.time, to: entry.time });
    else w.to = entry.time;
  }
  return [...windows.values()].sort((a, b) => a.from - b.from);
}

/** The most jobs in flight at one moment. */
export function peakInFlight(h: Harness): number {
  const edges = inFlight(h).flatMap((w) => [
    { at: w.from, d: 1 },
    { at: w.to, d: -1 },
  ]);
  // At one instant an end is counted before a start: a job released as another takes its place.
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let peak = 0;
  for (const e of edges) {
    now += e.d;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** Requests that change something (anything but a read), lock variables included. */
export function writes(h: Harness): RequestLogEntry[] {
  return h.sim.control.requestLog().filter((e) => e.method !== 'GET');
}
