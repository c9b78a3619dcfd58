/**
 * Nomad's job objects (`api/jobs.go`, `api/tasks.go`, `api/services.go`) and the status values
 * every object shares, as the HTTP API returns them: see `./types.ts` for the rules all of
 * Nomad's API types here follow.
 */

/** Job types Nomad knows. Unknown strings are kept as-is (`string`) so a newer Nomad does not crash us. */
export type JobType = 'service' | 'batch' | 'system' | 'sysbatch';

/** `Allocation.DesiredStatus` values. */
export type AllocDesiredStatus = 'run' | 'stop' | 'evict';

/** `Allocation.ClientStatus` values. */
export type AllocClientStatus = 'pending' | 'running' | 'complete' | 'failed' | 'lost' | 'unknown';

/** `Evaluation.Status` values (Nomad's `nomad/structs/eval.go` `EvalStatus*`). */
export type EvalStatus = 'pending' | 'complete' | 'failed' | 'blocked' | 'canceled';

/**
 * `Deployment.Status` values; only `failed`, `successful` and `cancelled` are terminal (Nomad's
 * `command/job_restart.go` `ensureNoActiveDeployment`).
 */
export type DeploymentStatus =
  | 'running'
  | 'paused'
  | 'failed'
  | 'successful'
  | 'cancelled'
  | 'pending'
  | 'blocked'
  | 'unblocking'
  | 'initializing';

/** `Node.Status` values. */
export type NodeStatus = 'initializing' | 'ready' | 'down' | 'disconnected';

export interface TaskLifecycle {
  /** `prestart`, `poststart` or `poststop`. */
  Hook: string;
  Sidecar?: boolean;
}

/** A service check (`api.ServiceCheck`); durations in nanoseconds. */
export interface ServiceCheck {
  Name: string;
  /** `http`, `tcp`, ... */
  Type: string;
  Interval?: number;
  Timeout?: number;
  Path?: string;
  PortLabel?: string;
  /**
   * `require_healthy` (the default), `ignore_warnings` or `ignore`. `ignore` makes a check a
   * readiness check, whose failures do not count against health; `ignore_warnings` counts a Consul
   * `warning` as healthy. Empty: the service's.
   */
  OnUpdate?: string;
  /** The status Consul gives the check when Nomad registers it (`initial_status`). @default - Consul's: `critical` */
  InitialStatus?: string;
}

/** A service of a group or task (`api.Service`); only `provider = "nomad"` checks are visible to the restart. */
export interface Service {
  Name: string;
  /** `consul` (Nomad's default) or `nomad`. */
  Provider?: string;
  PortLabel?: string;
  TaskName?: string;
  /** `require_healthy` (default), `ignore_warnings` or `ignore`: what its checks' statuses mean to deployments. */
  OnUpdate?: string;
  Checks?: ServiceCheck[] | null;
}

/** A group's restart policy (`api.RestartPolicy`); durations in nanoseconds. */
export interface RestartPolicy {
  Attempts?: number;
  Interval?: number;
  Delay?: number;
  /** `fail` or `delay`. */
  Mode?: string;
}

/**
 * A task template (`api.Template`): its text inline (`EmbeddedTmpl`, the jobspec's `data`) or read
 * from a file on the client (`SourcePath`, the jobspec's `source`), which the API never shows.
 */
export interface Template {
  EmbeddedTmpl?: string | null;
  SourcePath?: string | null;
  DestPath?: string | null;
  /** `restart`, `signal`, `script` or `noop`. */
  ChangeMode?: string | null;
  /** The action delimiters when not Go's `{{`/`}}`. */
  LeftDelim?: string | null;
  RightDelim?: string | null;
}

export interface Task {
  Name: string;
  /** Its templates, which a fleet's `-uses-variable`/`-uses-secret` reads. */
  Templates?: Template[] | null;
  Driver?: string;
  Config?: Record<string, unknown>;
  Lifecycle?: TaskLifecycle | null;
  Services?: Service[] | null;
  /**
   * Nanoseconds. Only waited for when the allocation is stopped, never on restart (Nomad's
   * `client/allocrunner/taskrunner/task_runner.go` `TaskRunner.handleKill`).
   */
  ShutdownDelay?: number;
  KillTimeout?: number;
  Env?: Record<string, string>;
}

export interface DisconnectStrategy {
  /** Nanoseconds; after this a disconnected node's allocations are `lost`. */
  LostAfter?: number;
  /** Place a replacement while disconnected (default true). */
  Replace?: boolean | null;
  /** `best_score` (default), `keep_original`, `keep_replacement` or `longest_running`. */
  Reconcile?: string;
  /** Nanoseconds. */
  StopOnClientAfter?: number | null;
}

export interface UpdateStrategy {
  MaxParallel?: number;
  Canary?: number;
  AutoPromote?: boolean;
  HealthCheck?: string;
  MinHealthyTime?: number;
  HealthyDeadline?: number;
  ProgressDeadline?: number;
}

export interface Constraint {
  LTarget?: string;
  RTarget?: string;
  Operand?: string;
}

export interface TaskGroup {
  Name: string;
  Count?: number;
  Tasks?: Task[];
  /**
   * Nanoseconds; the group-level delay, waited for by whole-allocation restarts (Nomad's
   * `client/allocrunner/group_service_hook.go` `PreTaskRestart`).
   */
  ShutdownDelay?: number | null;
  Disconnect?: DisconnectStrategy | null;
  /** Legacy form of `Disconnect.LostAfter`, nanoseconds. */
  MaxClientDisconnect?: number | null;
  Update?: UpdateStrategy | null;
  Constraints?: Constraint[] | null;
  Services?: Service[] | null;
  RestartPolicy?: RestartPolicy | null;
}

export interface MultiregionRegion {
  Name: string;
  Count?: number;
  Datacenters?: string[];
}

export interface Multiregion {
  Regions?: MultiregionRegion[] | null;
}

export interface Job {
  ID: string;
  Name?: string;
  Namespace?: string;
  Region?: string;
  ParentID?: string;
  /** May be missing on a malformed or pruned definition (seed fix: never crash on it). */
  Type?: JobType | string;
  Priority?: number;
  Datacenters?: string[];
  /** The node pool the job's allocations are placed in (Nomad 1.6+; `default` when unset). */
  NodePool?: string;
  Constraints?: Constraint[] | null;
  TaskGroups?: TaskGroup[];
  Update?: UpdateStrategy | null;
  Multiregion?: Multiregion | null;
  Periodic?: Record<string, unknown> | null;
  ParameterizedJob?: Record<string, unknown> | null;
  Stop?: boolean;
  Status?: string;
  /** User metadata; a change makes a new job version (tests use it to start a deployment). */
  Meta?: Record<string, string> | null;
  Version?: number;
  SubmitTime?: number;
  CreateIndex?: number;
  ModifyIndex?: number;
  JobModifyIndex?: number;
}

export interface JobSummary {
  JobID?: string;
  Namespace?: string;
  Summary?: Record<string, Record<string, number>>;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface JobListStub {
  ID: string;
  ParentID?: string;
  Name?: string;
  Namespace?: string;
  Datacenters?: string[];
  Type?: string;
  Priority?: number;
  Periodic?: boolean;
  ParameterizedJob?: boolean;
  Stop?: boolean;
  Status?: string;
  StatusDescription?: string;
  /**
   * The CLI reads the job's namespace from here (Nomad's `command/meta.go` `Meta.JobByPrefix`); it
   * may be missing.
   */
  JobSummary?: JobSummary | null;
  /** The job's meta, only with `meta=true` on the list (Nomad 1.6+). */
  Meta?: Record<string, string> | null;
  CreateIndex?: number;
  ModifyIndex?: number;
  JobModifyIndex?: number;
  SubmitTime?: number;
}

export interface JobVersionsResponse {
  Versions: Job[];
  Diffs?: unknown[] | null;
}
