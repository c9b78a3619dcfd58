/**
 * Nomad HTTP API objects, in Nomad's PascalCase, holding the fields this project reads or
 * the simulator serves. Field names and meanings follow `hashicorp/nomad` `api/*.go`.
 *
 * Optional (`?`) marks a field that real Nomad may omit, or that an old or pruned object may
 * lack: decoders must turn a missing value into `undefined`, never into a crash. In
 * particular an allocation's `Job`, a job's `Type`, an allocation's `TaskStates` and a job
 * list stub's `JobSummary` may all be absent.
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
   * `require_healthy` (the default), `ignore_warnings` or `ignore`. `ignore` makes a check a readiness
   * check, whose failures do not count against health; `ignore_warnings` counts a Consul `warning` as healthy. Empty: the service's.
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

export interface Task {
  Name: string;
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
  CreateIndex?: number;
  ModifyIndex?: number;
  JobModifyIndex?: number;
  SubmitTime?: number;
}

export interface JobVersionsResponse {
  Versions: Job[];
  Diffs?: unknown[] | null;
}

export interface TaskEvent {
  Type: string;
  /** Unix nanoseconds. */
  Time: number;
  DisplayMessage?: string;
  RestartReason?: string;
  Message?: string;
  Details?: Record<string, string>;
}

export interface TaskState {
  /** `pending`, `running` or `dead`. */
  State: string;
  Failed?: boolean;
  Restarts?: number;
  /** RFC 3339, or Go's zero time `0001-01-01T00:00:00Z` when never restarted. */
  LastRestart?: string | null;
  StartedAt?: string | null;
  FinishedAt?: string | null;
  Events?: TaskEvent[] | null;
}

export interface DesiredTransition {
  Migrate?: boolean | null;
  Reschedule?: boolean | null;
  ForceReschedule?: boolean | null;
  NoShutdownDelay?: boolean | null;
}

/** Fields common to `AllocListStub` and `Allocation`. */
export interface AllocListStub {
  ID: string;
  EvalID?: string;
  Name?: string;
  Namespace?: string;
  NodeID?: string;
  NodeName?: string;
  JobID: string;
  JobType?: string;
  JobVersion?: number;
  TaskGroup: string;
  DesiredStatus: AllocDesiredStatus | string;
  DesiredDescription?: string;
  ClientStatus: AllocClientStatus | string;
  ClientDescription?: string;
  DesiredTransition?: DesiredTransition;
  TaskStates?: Record<string, TaskState> | null;
  NextAllocation?: string;
  PreviousAllocation?: string;
  FollowupEvalID?: string;
  CreateIndex: number;
  ModifyIndex: number;
  AllocModifyIndex?: number;
  /** Unix nanoseconds. */
  CreateTime?: number;
  /** Unix nanoseconds. */
  ModifyTime?: number;
  /** The deployment that placed this allocation, if any. */
  DeploymentID?: string;
  /** Health and canary flag within that deployment. */
  DeploymentStatus?: { Healthy?: boolean | null; Canary?: boolean } | null;
}

export interface Allocation extends AllocListStub {
  /** The job definition at the allocation's version; may be missing. */
  Job?: Job | null;
}

export interface Deployment {
  ID: string;
  Namespace?: string;
  JobID: string;
  JobVersion?: number;
  JobModifyIndex?: number;
  JobCreateIndex?: number;
  Status: DeploymentStatus | string;
  StatusDescription?: string;
  /** Per task group progress. */
  TaskGroups?: Record<string, DeploymentGroupState> | null;
  CreateIndex?: number;
  ModifyIndex?: number;
}

/** `Deployment.TaskGroups[tg]`: how far the deployment of one group has come. */
export interface DeploymentGroupState {
  AutoPromote?: boolean;
  Promoted?: boolean;
  DesiredCanaries?: number;
  DesiredTotal?: number;
  PlacedCanaries?: string[] | null;
  PlacedAllocs?: number;
  HealthyAllocs?: number;
  UnhealthyAllocs?: number;
}

/**
 * Scheduler metrics for one task group's failed placement (Nomad's `command/monitor.go`
 * `formatAllocMetrics`).
 */
export interface AllocationMetric {
  NodesEvaluated?: number;
  NodesFiltered?: number;
  NodesInPool?: number;
  NodesAvailable?: Record<string, number> | null;
  ClassFiltered?: Record<string, number> | null;
  ConstraintFiltered?: Record<string, number> | null;
  NodesExhausted?: number;
  ClassExhausted?: Record<string, number> | null;
  DimensionExhausted?: Record<string, number> | null;
  QuotaExhausted?: string[] | null;
}

export interface Evaluation {
  ID: string;
  Namespace?: string;
  Priority?: number;
  Type?: string;
  TriggeredBy?: string;
  JobID: string;
  JobModifyIndex?: number;
  NodeID?: string;
  DeploymentID?: string;
  Status: EvalStatus | string;
  StatusDescription?: string;
  NextEval?: string;
  PreviousEval?: string;
  BlockedEval?: string;
  FailedTGAllocs?: Record<string, AllocationMetric> | null;
  QueuedAllocations?: Record<string, number> | null;
  CreateIndex: number;
  ModifyIndex: number;
  CreateTime?: number;
  ModifyTime?: number;
}

export interface DriverInfo {
  Detected?: boolean;
  Healthy?: boolean;
}

export interface NodeListStub {
  ID: string;
  Name?: string;
  Address?: string;
  Datacenter?: string;
  NodeClass?: string;
  NodePool?: string;
  Status: NodeStatus | string;
  SchedulingEligibility?: 'eligible' | 'ineligible' | string;
  Drain?: boolean;
  Drivers?: Record<string, DriverInfo> | null;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export type Node = NodeListStub;

/** Response of `PUT /v1/allocation/:id/stop`. */
export interface AllocStopResponse {
  EvalID: string;
  Index: number;
}

/** Response of `PUT /v1/job/:id/evaluate`. */
export interface JobEvaluateResponse {
  EvalID: string;
  EvalCreateIndex?: number;
  JobModifyIndex?: number;
  Index?: number;
}

/** Response of `PUT /v1/jobs`. */
export interface JobRegisterResponse {
  EvalID?: string;
  EvalCreateIndex?: number;
  JobModifyIndex?: number;
  Warnings?: string;
  Index?: number;
}

/** Body of `PUT /v1/client/allocation/:id/restart`. */
/**
 * The latest result of one Nomad service check (`api.AllocCheckStatus`), from
 * `GET /v1/client/allocation/:id/checks`. The client keeps it across task restarts, so a result
 * older than the task's start says nothing about the new process.
 */
export interface AllocCheckStatus {
  ID: string;
  /** The check's name. */
  Check: string;
  /** The allocation's name, e.g. `web.api[1]`. */
  Group?: string;
  /** Set for checks of task-level services. */
  Task?: string;
  Service?: string;
  /** `healthiness`, or `readiness` (`on_update = "ignore"`). */
  Mode?: string;
  /** `success`, `failure`, or `pending` before the first run. */
  Status: string;
  /** HTTP checks only; omitted when 0. */
  StatusCode?: number;
  Output?: string;
  /** Unix seconds of the run. */
  Timestamp: number;
}

/** Check results by check ID; empty when the allocation has no Nomad checks (or is gone from its client). */
export type AllocCheckStatuses = Record<string, AllocCheckStatus>;

export interface AllocRestartRequest {
  TaskName: string;
  AllTasks: boolean;
}

/**
 * Body of `PUT /v1/job/:id/evaluate`, exactly as Nomad's CLI sends it (`command/job_restart.go`
 * `stopAlloc`).
 */
export interface JobEvaluateRequest {
  JobID: string;
  EvalOptions: { ForceReschedule: boolean };
  Region: string;
  Namespace: string;
  SecretID: string;
}
