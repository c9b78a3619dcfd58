/**
 * Where the end-to-end suite runs. Without `NOMAD_E2E_ADDR`, each test group gets a fresh
 * in-process simulator seeded with its jobs (already running), exactly as before. With it,
 * the same jobs are registered on that real agent through `PUT /v1/jobs`, waited on until
 * they run, and purged afterwards; what the tests read back (task events, replacements,
 * deployments) comes through the same HTTP API either way. Cases that need what only the
 * simulator offers (its control API, ACL tokens, several nodes) print why they are not run.
 *
 * On an agent every target keeps its fixtures in namespaces of its own (`e2e-<run>-<n>`, and
 * `e2e-<run>-<n>-<name>` for a fixture namespace `<name>`), reached through `env` and
 * `namespace()`: a job the agent already runs (a `web`, say) is never updated, restarted,
 * counted or purged, and two runs of the suite on one agent never see each other's jobs. What a
 * target registers is purged, any job lock variable left in its namespaces deleted (Nomad keeps
 * a namespace that holds a variable), and its namespaces deleted, when it closes
 * (`afterEach`/`finally`).
 */
import { randomBytes } from 'node:crypto';
import type { Variable } from '../../../lib/nomad';
import type { AllocListStub, Deployment, Evaluation, Job, NodeListStub } from '../../../lib/nomad/types';
import { SHARED_LOCK_PREFIX } from '../../../lib/stores/shared-lock-settings';
import { parseGoDuration } from '../../../sim/duration';
import { createScaledClock, type NodeSpec, type RunningSimulator } from '../../../sim/index';
import { openedAroundEach } from '../../fixtures/opened-around';
import { call, eventually, get, put } from '../../sim/helpers/http';
import { E2E_ADDR } from '../../sim/helpers/target';
import {
  allocationCount,
  type Harness,
  startHarness,
  taskRestartSignaled,
  waitAllRunning,
} from '../../steps/helpers/harness';

export { E2E_ADDR };

/** What a test group needs: nodes (simulator only: an agent has the nodes it has), namespaces, jobs. */
export interface E2eSetup {
  readonly nodes?: NodeSpec[];
  readonly namespaces?: string[];
  readonly jobs?: Job[];
  /**
   * Simulator only: run its clock in real time, not 100 times faster (a Nomad lock's TTL is then
   * seconds long, as a real agent's, and outlives a run that renews it).
   */
  readonly realTime?: boolean;
}

/** One target of the suite: a simulator, or the real agent at `NOMAD_E2E_ADDR`. */
export interface E2eTarget {
  /** `NOMAD_ADDR` for the command. */
  readonly address: string;
  /**
   * What the command needs in its environment to reach this target's fixtures: `NOMAD_ADDR`,
   * and on an agent `NOMAD_NAMESPACE`, the target's own namespace (its `default`).
   */
  readonly env: Readonly<Record<string, string>>;
  /** The name a fixture namespace has on the target: itself on the simulator, the target's own on an agent (`*` stays). */
  namespace(name: string): string;
  /** The simulator behind `address`, for simulator-only assertions; undefined against an agent. */
  readonly sim: RunningSimulator | undefined;
  /** Registers (or updates) a job after setup, like `PUT /v1/jobs`. */
  register(job: Job): Promise<void>;
  /** Waits until exactly `count` allocations of the job that should run are running. */
  waitRunning(jobId: string, count: number, namespace?: string): Promise<void>;
  /** The job's allocations with their task states, through `GET /v1/job/:id/allocations`. */
  allocations(jobId: string, namespace?: string): Promise<AllocListStub[]>;
  /**
   * The job's allocations once `done` holds for them, or the last ones read after a while
   * (so the test's own assertion reports the difference). A real client reports task events
   * to the servers a moment after the fact; the simulator has them at once, but its kills take
   * simulated time.
   */
  allocationsWhen(
    jobId: string,
    done: (allocations: AllocListStub[]) => boolean,
    namespace?: string,
  ): Promise<AllocListStub[]>;
  deployments(jobId: string, namespace?: string): Promise<Deployment[]>;
  /** Ready nodes eligible for scheduling. */
  readyNodes(): Promise<NodeListStub[]>;
  /** Sets a node's scheduling eligibility; an agent's nodes are set back on close. */
  setEligibility(nodeId: string, eligible: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Deployment statuses that no longer hold a restart up. */
const OVER = new Set(['successful', 'failed', 'cancelled']);

/** How long an agent gets to place and start a job, or to report task events. */
const AGENT_WAIT_MS = 60_000;
/** How long a closing target waits for Nomad to let each of its namespaces go (all wait at once). */
const NAMESPACE_WAIT_MS = 30_000;
/** The simulator answers with its task events at once; only simulated delays (a kill) take time. */
const SIM_WAIT_MS = 5_000;

/** Opens the target for one test group. */
export async function openE2e(setup: E2eSetup = {}): Promise<E2eTarget> {
  if (E2E_ADDR) return openAgent(E2E_ADDR, setup);
  const { realTime, ...scenario } = setup;
  return fromHarness(await startHarness(scenario, realTime ? { clock: createScaledClock(1) } : {}));
}

/**
 * True, after printing why, when a case cannot run against the agent; use as
 * `if (!notOnAgent(name, reason)) it(...)`.
 */
export function notOnAgent(name: string, reason = 'needs the simulator control API'): boolean {
  if (!E2E_ADDR) return false;
  console.log(`not run against ${E2E_ADDR}: "${name}" ${reason}`);
  return true;
}

/** `describe` for a group that needs the simulator: against an agent it prints `reason` instead. */
export function describeSim(name: string, reason: string, fn: () => void): void {
  if (!notOnAgent(name, reason)) describe(name, fn);
}

/** A target with `job` placed and every allocation of it running, fresh for each test. */
export function runningE2ePerTest(job: Job): E2eTarget {
  return openedAroundEach(
    async () => {
      const target = await openE2e({ jobs: [job] });
      await target.waitRunning(job.ID, allocationCount(job));
      return target;
    },
    (target) => target.close(),
  );
}

/** How many allocations of the job got a restart, once `expected` have (or after the wait). */
export async function restartedCount(target: E2eTarget, jobId: string, expected: number): Promise<number> {
  const all = await target.allocationsWhen(
    jobId,
    (allocations) => allocations.filter(wasRestarted).length === expected,
  );
  return all.filter(wasRestarted).length;
}

/** Whether any task of the allocation got a `Restart Signaled` event. */
export function wasRestarted(allocation: AllocListStub): boolean {
  return Object.values(allocation.TaskStates ?? {}).some(taskRestartSignaled);
}

/** `<group>.<task>` of every task with a `Restart Signaled` event, one entry per allocation, sorted. */
export function restartedTasks(allocations: readonly AllocListStub[]): string[] {
  return allocations
    .flatMap((allocation) =>
      Object.entries(allocation.TaskStates ?? {})
        .filter(([, state]) => taskRestartSignaled(state))
        .map(([task]) => `${allocation.TaskGroup}.${task}`),
    )
    .sort();
}

function fromHarness(h: Harness): E2eTarget {
  const address = h.sim.address;
  const allocations = async (jobId: string, namespace = 'default') =>
    (await get<AllocListStub[]>(address, allocationsPath(jobId, namespace))).json;
  return {
    address,
    env: { NOMAD_ADDR: address },
    namespace: (name) => name,
    sim: h.sim,
    register: async (job) => {
      h.sim.control.registerJob(job);
    },
    waitRunning: async (jobId, count, namespace) => waitAllRunning(h, jobId, count, namespace),
    allocations,
    allocationsWhen: (jobId, done, namespace) =>
      allocationsOnceDone(() => allocations(jobId, namespace), done, SIM_WAIT_MS, 10),
    deployments: (jobId, namespace = 'default') => deployments(address, jobId, namespace),
    readyNodes: async () => readyNodes(address),
    setEligibility: async (nodeId, eligible) => h.sim.control.setNodeEligibility(nodeId, eligible),
    close: () => h.close(),
  };
}

/** This run of the suite; each agent target adds a number, so no two share a namespace. */
const RUN = randomBytes(3).toString('hex');
let targets = 0;

async function openAgent(address: string, setup: E2eSetup): Promise<E2eTarget> {
  const home = `e2e-${RUN}-${++targets}`;
  const ns = (name: string) => (name === '*' ? '*' : name === 'default' ? home : `${home}-${name}`);
  const created = [home, ...(setup.namespaces ?? []).map(ns)];
  const registered = new Map<string, { id: string; namespace: string }>();
  const ineligible = new Set<string>();
  const driver = await agentDriver(address);
  const allocations = async (jobId: string, namespace = 'default') =>
    (await expectOk(get<AllocListStub[]>(address, allocationsPath(jobId, ns(namespace))))).json;

  const register = async (job: Job, deployed = false) => {
    const namespace = ns(job.Namespace ?? 'default');
    registered.set(`${namespace}/${job.ID}`, { id: job.ID, namespace });
    await expectOk(put(address, '/v1/jobs', { Job: forAgent({ ...job, Namespace: namespace }, driver) }));
    await settled(address, job.ID, namespace, deployed);
  };

  const target: E2eTarget = {
    address,
    env: { NOMAD_ADDR: address, NOMAD_NAMESPACE: home },
    namespace: ns,
    sim: undefined,
    register: (job) => register(job),
    waitRunning: async (jobId, count, namespace) => {
      const running = (all: AllocListStub[]) =>
        all.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'running').length;
      await eventually(
        async () => (running(await allocations(jobId, namespace)) === count ? true : undefined),
        AGENT_WAIT_MS,
        200,
      ).catch(async () => {
        const now = running(await allocations(jobId, namespace));
        throw new Error(`${jobId}: ${now} allocations running on ${address}, expected ${count}`);
      });
    },
    allocations,
    allocationsWhen: (jobId, done, namespace) =>
      allocationsOnceDone(() => allocations(jobId, namespace), done, AGENT_WAIT_MS, 200),
    deployments: (jobId, namespace = 'default') => deployments(address, jobId, ns(namespace)),
    readyNodes: () => readyNodes(address),
    setEligibility: async (nodeId, eligible) => {
      if (eligible) ineligible.delete(nodeId);
      else ineligible.add(nodeId);
      await expectOk(
        put(address, `/v1/node/${nodeId}/eligibility`, {
          NodeID: nodeId,
          Eligibility: eligible ? 'eligible' : 'ineligible',
        }),
      );
    },
    async close() {
      for (const nodeId of ineligible) await target.setEligibility(nodeId, true);
      for (const { id, namespace } of registered.values())
        await call(address, `/v1/job/${encodeURIComponent(id)}?purge=true&namespace=${namespace}`, {
          method: 'DELETE',
        });
      // Nomad refuses to delete a namespace that holds a variable: a run killed mid-way leaves its
      // job's lock variable. A namespace goes once that is gone and its purged jobs' allocations
      // are gone from the servers' view; all at once, well within the hooks' time.
      await Promise.all(
        created.map(async (name) => {
          await deleteLockVariables(address, name);
          await eventually(
            async () =>
              (await call(address, `/v1/namespace/${encodeURIComponent(name)}`, { method: 'DELETE' }))
                .status === 200
                ? true
                : undefined,
            NAMESPACE_WAIT_MS,
            500,
          ).catch(() => console.log(`namespace ${name} left on ${address}: it still holds something`));
        }),
      );
    },
  };

  try {
    for (const name of created)
      await expectOk(put(address, `/v1/namespace/${encodeURIComponent(name)}`, { Name: name }));
    await Promise.all((setup.jobs ?? []).map((job) => register(job, true)));
  } catch (error) {
    await target.close();
    throw error;
  }
  return target;
}

/** Deletes every `nomad-restart/locks/` variable in `namespace`, releasing a lock still held first. */
async function deleteLockVariables(address: string, namespace: string): Promise<void> {
  const ns = `namespace=${encodeURIComponent(namespace)}`;
  const left = await get<Variable[]>(address, `/v1/vars?prefix=${SHARED_LOCK_PREFIX}&${ns}`);
  for (const { Path } of left.status === 200 ? left.json : []) {
    const lockId = (await get<Variable>(address, `/v1/var/${Path}?${ns}`)).json?.Lock?.ID;
    if (lockId !== undefined)
      await put(address, `/v1/var/${Path}?lock-release&${ns}`, { Path, Lock: { ID: lockId } });
    await call(address, `/v1/var/${Path}?${ns}`, { method: 'DELETE' });
  }
}

/** Reads the allocations until `done` holds for them, or returns the last read after `timeoutMs`. */
async function allocationsOnceDone(
  read: () => Promise<AllocListStub[]>,
  done: (allocations: AllocListStub[]) => boolean,
  timeoutMs: number,
  everyMs: number,
): Promise<AllocListStub[]> {
  let last: AllocListStub[] = [];
  await eventually(
    async () => {
      last = await read();
      return done(last) ? true : undefined;
    },
    timeoutMs,
    everyMs,
  ).catch(() => undefined);
  return last;
}

function allocationsPath(jobId: string, namespace: string): string {
  return `/v1/job/${encodeURIComponent(jobId)}/allocations?namespace=${encodeURIComponent(namespace)}`;
}

async function deployments(address: string, jobId: string, namespace: string): Promise<Deployment[]> {
  const path = `/v1/job/${encodeURIComponent(jobId)}/deployments?namespace=${encodeURIComponent(namespace)}`;
  return (await expectOk(get<Deployment[]>(address, path))).json;
}

async function readyNodes(address: string): Promise<NodeListStub[]> {
  const nodes = (await expectOk(get<NodeListStub[]>(address, '/v1/nodes'))).json;
  return nodes.filter((n) => n.Status === 'ready' && n.SchedulingEligibility !== 'ineligible');
}

/**
 * Waits until the job's evaluations are all processed (none pending) and every allocation
 * that should run is running, and with `deployed` until its deployments are over (Nomad gives
 * every service and system job a deployment, `running` until its allocations have been healthy
 * for 10 s, like `nomad job run` waits for): what the simulator's seeding gives at once.
 */
async function settled(address: string, jobId: string, namespace: string, deployed: boolean): Promise<void> {
  const path = (what: string) =>
    `/v1/job/${encodeURIComponent(jobId)}/${what}?namespace=${encodeURIComponent(namespace)}`;
  await eventually(
    async () => {
      const evals = (await get<Evaluation[]>(address, path('evaluations'))).json;
      if (evals.length === 0 || evals.some((e) => e.Status === 'pending')) return undefined;
      const allocs = (await get<AllocListStub[]>(address, path('allocations'))).json;
      if (allocs.some((a) => a.DesiredStatus === 'run' && a.ClientStatus !== 'running')) return undefined;
      if (!deployed) return true;
      const deployments = (await get<Deployment[]>(address, path('deployments'))).json;
      return deployments.every((d) => OVER.has(d.Status)) ? true : undefined;
    },
    AGENT_WAIT_MS,
    200,
  ).catch(() => {
    throw new Error(`${namespace}/${jobId} did not settle on ${address} within ${AGENT_WAIT_MS} ms`);
  });
}

async function expectOk<T>(response: Promise<{ status: number; text: string } & T>) {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`Nomad answered ${answer.status}: ${answer.text}`);
  return answer;
}

/**
 * The driver the fixtures run with on the agent: `mock_driver` (as in Nomad's own tests; in
 * every build without the `release` tag), else `raw_exec` with `sleep` (enabled by `-dev`).
 */
async function agentDriver(address: string): Promise<'mock_driver' | 'raw_exec'> {
  const nodes = (await expectOk(get<NodeListStub[]>(address, '/v1/nodes?resources=false'))).json;
  const has = (name: string) => nodes.some((n) => n.Drivers?.[name]?.Healthy);
  if (has('mock_driver')) return 'mock_driver';
  if (has('raw_exec')) return 'raw_exec';
  throw new Error(`no node of ${address} has mock_driver or raw_exec healthy`);
}

/** How long a fixture task without `run_for` runs on the agent (the simulator runs it until stopped). */
const FOREVER = '1h';

/**
 * A fixture job as the agent gets it. The simulator runs a `mock_driver` task without
 * `run_for` until it is stopped, while the real driver ends it at once, so it gets an hour;
 * tasks get the smallest resources and no log collection, so a few hundred fit on one agent.
 * A raw_exec task with its own `command` (a server the health gate's checks can reach) is kept.
 */
export function forAgent(job: Job, driver: 'mock_driver' | 'raw_exec' = 'mock_driver'): object {
  return {
    ...job,
    TaskGroups: job.TaskGroups?.map((group) => ({
      ...group,
      EphemeralDisk: { SizeMB: 10 },
      Tasks: group.Tasks?.map((task) => {
        const small = {
          Resources: { CPU: 1, MemoryMB: 10 },
          LogConfig: { Disabled: true, MaxFiles: 1, MaxFileSizeMB: 1 },
        };
        // A fixture written for a real client (a raw_exec command, e.g. an HTTP server) runs as it is.
        if (task.Driver === 'raw_exec' && typeof task.Config?.['command'] === 'string')
          return { ...task, ...small, Resources: { CPU: 20, MemoryMB: 32 } };
        const runFor = String(task.Config?.['run_for'] ?? FOREVER);
        const config =
          driver === 'mock_driver'
            ? { ...task.Config, run_for: runFor }
            : { command: 'sleep', args: [String((parseGoDuration(runFor) ?? 3_600_000) / 1000)] };
        return { ...task, Driver: driver, Config: config, ...small };
      }),
    })),
  };
}
