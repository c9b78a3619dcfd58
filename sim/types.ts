/** Public types of the simulator: options, scenarios, faults and the control API. */

import type { ConsulHealthCheck } from '../lib/consul/types';
import type { Allocation, Deployment, Evaluation, Job, Node } from '../lib/nomad/types';
import type { AclSpec } from './acl';
import type { SimClock } from './clock';
import type { SimConsulAclSpec } from './consul/acl';
import type { SimCheckBehaviour, SimConsulCheckScript, SimCrash, SimTarget } from './model/behaviours';
import type { SimTiming } from './model/context';
import type { NodePoolSpec, NodeSpec } from './model/nodes';
import type { SimCheckRun } from './model/store';

export type { AclSpec, AclTokenSpec } from './acl';
export type { SimClock } from './clock';
export type { SimConsulAclSpec, SimConsulTokenSpec } from './consul/acl';
export type { SimCheckBehaviour, SimConsulCheckScript, SimCrash, SimTarget } from './model/behaviours';
export type { SimTiming } from './model/context';
export type { NodePoolSpec, NodeSpec } from './model/nodes';
export type { SimCheckRun } from './model/store';

/**
 * A cluster to start from, JSON-serialisable (scenario files are this shape). Jobs are
 * registered and placed at once, their allocations already `running`.
 */
/** Which Nomad's variables API the simulator speaks (see {@link SimControl.setVariablesApi}). */
export type VariablesApi = 'locks' | 'no-locks' | 'absent';

export interface Scenario {
  /** Namespaces besides `default`. */
  namespaces?: string[];
  /** Node pools besides the built-in `all` and `default` (a node's pool is created if missing). */
  nodePools?: NodePoolSpec[];
  nodes: NodeSpec[];
  /** Jobs as the API takes them; `Namespace` picks the namespace. `{ "Job": {...} }` is accepted too. */
  jobs: Array<Job | { Job: Job }>;
  acl?: AclSpec;
  /** Nomad variables, written before the jobs are placed (at the seed's instant, less their `age`). */
  variables?: ScenarioVariable[];
}

/**
 * A variable of a scenario: `namespace` (default `default`) must be one the scenario has; `age`, a
 * Go duration, dates its `CreateTime`/`ModifyTime` that long before the seed (default `0s`), as a
 * variable a template needs was written before its job started.
 */
export interface ScenarioVariable {
  namespace?: string;
  path: string;
  items: Record<string, string>;
  age?: string;
}

/**
 * Options of {@link startSimulator}. The timing knobs ({@link SimTiming}) are in simulated
 * milliseconds: `schedulerDelayMs` (100), `allocStartMs` (1000, pending → running),
 * `taskKillMs` (100, the kill part of a restart or stop), `deploymentHealthyMs` (10000),
 * `taskRestartMs` (0, a restarted task's way back to `running`).
 */
export interface SimulatorOptions extends Partial<SimTiming> {
  /** Default 0 (an ephemeral port). The host is always 127.0.0.1. */
  port?: number;
  /** Port of the simulated Consul. Default 0 (an ephemeral port). */
  consulPort?: number;
  /** Default `'empty'`. */
  scenario?: Scenario | 'demo' | 'fleet' | 'rotation' | 'empty';
  /** Real ms per simulated ms; 0.01 makes a simulated second last 10 ms. Default 1. */
  timeScale?: number;
  /** Overrides the scaled wall clock built from `timeScale`. */
  clock?: SimClock;
  /**
   * The clock of variable locks' TTLs and lock delays. A client renews its lease by its own clock,
   * which a simulator running faster than real time cannot speed up, so leases keep real time
   * whatever `timeScale` says. Default: real time.
   */
  leaseClock?: SimClock;
  /** Random source for IDs, placement ties and blocking-query jitter. Default `Math.random`. */
  random?: () => number;
  /** The agent's region; a request for any other answers 500 `No path to region`. Default `global`. */
  region?: string;
  /** Entries the request logs keep, the most recent (a fleet benchmark may want them all). Default 100,000. */
  requestLogLimit?: number;
}

/** The Nth (1-based; every one if omitted) request whose path ends with `pathSuffix` gets `status` and `body`. */
export interface StatusFault {
  kind?: 'status';
  pathSuffix: string;
  status: number;
  body?: string;
  nth?: number;
  method?: string;
  /** Let the request take effect, then replace the response (a proxy failing on the way back). */
  afterHandling?: boolean;
}

/** The matching request's connection is destroyed without an answer. */
export interface ResetFault {
  kind: 'reset';
  pathSuffix?: string;
  nth?: number;
  method?: string;
}

/** Matching requests wait `latencyMs` real milliseconds first. */
export interface LatencyFault {
  kind?: 'latency';
  latencyMs: number;
  pathSuffix?: string;
  method?: string;
}

/** Every `/v1` request answers 500 `No cluster leader` with `X-Nomad-KnownLeader: false`. */
export interface NoLeaderFault {
  kind: 'no-leader';
}

export type Fault = StatusFault | ResetFault | LatencyFault | NoLeaderFault;

/**
 * The request that sets off a control action: the Nth (1-based, default 1) `/v1` request
 * whose path ends with `pathSuffix` (and whose method is `method`, if given).
 */
export interface RequestTrigger {
  pathSuffix: string;
  nth?: number;
  method?: string;
}

/** One line of the request log. `token` is present (always `'redacted'`) when a token was sent. */
export interface RequestLogEntry {
  /** Simulated Unix ms when the response was sent. */
  time: number;
  method: string;
  path: string;
  query: string;
  status: number;
  /** The job the request is about (a job route, or the job of the allocation, evaluation or deployment it names). */
  job?: string;
  namespace?: string;
  token?: 'redacted';
}

/** Filters of {@link SimStateView} queries. */
export interface StateFilter {
  jobId?: string;
  namespace?: string;
}

/**
 * Read-only snapshots of the state (deep copies: mutating them changes nothing).
 * Allocations carry `Job` like `GET /v1/allocation/:id`.
 */
export interface SimStateView {
  /** The global index. */
  index: number;
  jobs(): Job[];
  job(id: string, namespace?: string): Job | undefined;
  allocations(filter?: StateFilter): Allocation[];
  allocation(id: string): Allocation | undefined;
  evaluations(filter?: StateFilter): Evaluation[];
  deployments(filter?: StateFilter): Deployment[];
  nodes(): Node[];
  /** A Nomad variable: its items, and its lock while one is held. */
  variable(
    namespace: string,
    path: string,
  ): { items: Record<string, string>; lock?: { id: string; ttl: string; lockDelay: string } } | undefined;
  /** Blocking queries currently held open. */
  heldQueries(): number;
  /**
   * Every result each Nomad service check of the allocation produced (its `pending` start
   * included), by check name, oldest first, with the simulated Unix ms of each; purged checks
   * included. Empty for an unknown allocation or one without Nomad checks.
   */
  checkRuns(allocationId: string): Record<string, SimCheckRun[]>;
}

/** Test and demo control of a running simulator; also served over HTTP under `/_sim`. */
export interface SimControl {
  /** Adds namespaces, nodes, ACL configuration and jobs (placed and running at once). */
  seed(scenario: Scenario): void;
  /** Registers a job like `PUT /v1/jobs` (asynchronous scheduling, as on the wire). */
  registerJob(job: Job, namespace?: string): { evalId: string; index: number };
  setNodeStatus(nodeId: string, status: 'ready' | 'down' | 'disconnected'): void;
  setNodeEligibility(nodeId: string, eligible: boolean): void;
  setDeploymentStatus(deploymentId: string, status: string): void;
  /**
   * Starts a pending allocation now instead of after `allocStartMs` (with a long
   * `allocStartMs`, a replacement stays pending until this is called).
   * @throws SimControlError for an unknown allocation, or one that is not pending on a ready node.
   */
  startPendingAllocation(allocationId: string): void;
  /**
   * Garbage-collects an allocation as `nomad system gc` does a terminal one: it is gone from
   * every read, which then answers Nomad's 404.
   * @throws SimControlError for an unknown allocation.
   */
  garbageCollect(allocationId: string): void;
  /**
   * How the Nomad service check named `check` answers from now on, in one allocation or in
   * every allocation of a job (placed later too): `passing` (the default), `failing-after-restart`,
   * `flapping` or `never-passing` (see {@link SimCheckBehaviour}).
   * @throws SimControlError for an unknown allocation or job.
   */
  setCheckBehaviour(target: SimTarget, check: string, behaviour: SimCheckBehaviour): void;
  /**
   * Crash on start: from now on `task` (every task when omitted) of the target exits with an
   * error as it starts, and its group's restart policy decides what follows (Nomad's restart
   * tracker: restarts after `delay`, then the task and the allocation fail, or wait the interval).
   * @throws SimControlError for an unknown allocation or job.
   */
  crashOnStart(target: SimTarget, crash?: SimCrash & { task?: string }): void;
  /**
   * Which Nomad's variables API the agent speaks: `locks` (1.7 and later, the default),
   * `no-locks` (1.4 to 1.6: a lock operation is a plain write, answered without a `Lock`), or
   * `absent` (before 1.4: every `/v1/var` and `/v1/vars` request is a 404 with an empty body).
   */
  setVariablesApi(api: VariablesApi): void;
  injectFault(fault: Fault): void;
  /**
   * Runs `action` once, when the trigger's request arrives: before any fault applies and
   * before the request is handled (e.g. a deployment that starts as the first restart of a
   * batch comes in). In process only; `clearFaults` and `reset` disarm it.
   */
  onRequest(trigger: RequestTrigger, action: () => void): void;
  clearFaults(): void;
  /**
   * Requests per `'METHOD /v1/route/pattern'` (e.g. `'PUT /v1/client/allocation/:id/restart'`;
   * unknown routes under `'METHOD (unmatched)'`), plus `total` (every `/v1` request),
   * `total:blocking` (GETs with `index` > 0) and `total:errors` (non-200 answers).
   * Control requests under `/_sim` are not counted.
   */
  counters(): Record<string, number>;
  /**
   * `/v1` requests per endpoint family (the path's first segment: `job`, `jobs`, `allocation`,
   * `client`, `node`, ...) and per wall-clock second, with the busiest second (a fleet's peak
   * load on Nomad). Cleared with the counters.
   */
  requestRates(): RequestRates;
  requestLog(): RequestLogEntry[];
  resetCounters(): void;
  /** Empty state (no nodes, jobs or ACLs), faults and counters cleared. */
  reset(): void;
  state(): SimStateView;
  /**
   * Resolves once `predicate(state())` holds (checked after every write), rejects after `timeoutMs`
   * real ms (10 s by default); `Infinity` waits on the state alone, for a test whose own timeout bounds it.
   */
  waitFor(predicate: (state: SimStateView) => boolean, timeoutMs?: number): Promise<void>;
}

/** Request rates: per endpoint family, per wall-clock second (Unix seconds), and the peak. */
export interface RequestRates {
  byFamily: Record<string, number>;
  perSecond: Array<{ second: number; count: number }>;
  peakPerSecond: number;
}

/** Control of the simulated Consul. */
export interface SimConsulControl {
  /**
   * How the Consul check named `check` answers from its next run, in one allocation or in every
   * allocation of a job (see {@link SimConsulCheckScript}).
   * @throws SimControlError for an unknown allocation or job.
   */
  setCheck(target: SimTarget, check: string, script: SimConsulCheckScript): void;
  /** Turns Consul's ACLs on with these tokens, or off (`undefined`, the default). */
  configureAcl(spec: SimConsulAclSpec | undefined): void;
  /** What `GET /v1/health/checks/<service>` shows now, ACLs aside (copies). */
  checks(service: string): ConsulHealthCheck[];
  /** Consul requests per `'METHOD /v1/route/pattern'`, plus `total`, `total:blocking` and `total:errors`. */
  counters(): Record<string, number>;
  /** Consul requests per endpoint family (`health`, ...) and per wall-clock second, with the peak. */
  requestRates(): RequestRates;
  requestLog(): RequestLogEntry[];
  resetCounters(): void;
  injectFault(fault: Fault): void;
  clearFaults(): void;
}

export interface RunningSimulator {
  /** `http://127.0.0.1:<port>` */
  address: string;
  control: SimControl;
  /**
   * The simulator's Consul, on its own port: the services the simulated clients register there
   * (`provider = "consul"`, Nomad's default) and their checks, with Consul's health reads.
   */
  consul: { address: string; control: SimConsulControl };
  close(): Promise<void>;
}
