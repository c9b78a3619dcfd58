/**
 * Nomad's allocation, deployment, evaluation and node objects (`api/allocations.go`,
 * `api/deployments.go`, `api/evaluations.go`, `api/nodes.go`) and the bodies of the writes this
 * project sends: see `./types.ts` for the rules all of Nomad's API types here follow.
 */
import type {
  AllocClientStatus,
  AllocDesiredStatus,
  DeploymentStatus,
  EvalStatus,
  Job,
  NodeStatus,
} from './job-types';

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

/** An entry of `GET /v1/namespaces` (Nomad's `api.Namespace`, the fields read here). */
export interface Namespace {
  Name: string;
  Description?: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}

/** `GET /v1/node/pool/:name` (Nomad's `api.NodePool`, the fields read here). */
export interface NodePool {
  Name: string;
  Description?: string;
  CreateIndex?: number;
  ModifyIndex?: number;
}
