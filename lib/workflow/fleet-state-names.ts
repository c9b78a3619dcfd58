/**
 * State IDs and payloads of the fleet state machine (`fleet-definition.ts`): plan the fleet,
 * restart each job as a child execution of the one-job state machine under a Distributed Map,
 * summarize. A contract like `state-names.ts`: the local engine binds the fleet's Lambda Tasks by
 * these names and supplies the Distributed Map itself; the CLI follows a fleet by them.
 */
import type { FleetJobRef, JobScope } from '../fleet/items';
import type { RestartInput } from '../restart/input';

/** The fleet's own handler modules under `lambdas/` (also their Lambda construct ids). */
export const FLEET_HANDLER_IDS = ['plan-fleet', 'summarize-fleet'] as const;

/** One of {@link FLEET_HANDLER_IDS}. */
export type FleetHandlerId = (typeof FLEET_HANDLER_IDS)[number];

/**
 * The fleet's handler no state invokes: EventBridge's, for a fleet execution that failed, timed
 * out or was stopped, whose provisional record in the run history nothing else ends.
 */
export const FLEET_END_HANDLER_ID = 'end-fleet-record';

/** Every fleet function: the Tasks' and {@link FLEET_END_HANDLER_ID}. */
export type FleetFunctionId = FleetHandlerId | typeof FLEET_END_HANDLER_ID;

export const FleetTaskStates = {
  /** Validates the fleet input, selects the jobs, writes the item list: `FleetState` out. */
  planFleet: 'Plan fleet',
  /** Inside the item processor: `states:startExecution.sync:2` of the one-job state machine. */
  restartJob: 'Restart job',
  /** Reads the Distributed Map's results and the skipped list: the fleet's summary. */
  summarizeFleet: 'Summarize fleet',
} as const;

export const FleetFlowStates = {
  /** Choice: anything to restart (and not a dry run)? */
  jobsToRestart: 'Jobs to restart?',
  /** The Distributed Map over the item list. */
  restartJobs: 'Restart jobs',
  /** Item processor: the item's input merged into the shared options (`States.JsonMerge`). */
  jobInput: 'Job input',
  /** Item processor: the failed child's error read from the `.sync` task's cause. */
  readJobError: 'Read job error',
  /** Item processor Choice: a locked job is an outcome, not a failure of the item. */
  jobLocked: 'Job locked?',
  /** Item processor Succeed of a locked job. */
  jobSkippedLocked: 'Job skipped (locked)',
  /** Item processor Fail of a failed job (counts toward `ToleratedFailureCount`). */
  jobFailed: 'Job failed',
  /** Succeed: every selected job restarted or was skipped for its kind. */
  fleetFinished: 'Fleet restart finished',
} as const;

export const FleetFailStates = {
  invalidInput: 'InvalidInput',
  /** A job failed, was locked (outside a schedule) or was not reached. */
  fleetFinishedWithErrors: 'FleetRestartFinishedWithErrors',
  stepFailed: 'StepFailed',
} as const;

/**
 * What "Plan fleet" fixes of the fleet run's history record (issue #40) for "Summarize fleet" and
 * the engines' ends to write the same record: O(1), the selection cut to a bound.
 */
export interface FleetHistoryRef {
  /** The namespace whose fleets' history (`FLEET_HISTORY_PATH`) holds the record. */
  readonly namespace: string;
  /** The selection, order and budget in short, as the `fleet` command's flags. */
  readonly options: string;
  /** Which engine runs the fleet (lib/history/record.ts `RunEngine`). */
  readonly engine: 'terminal' | 'aws';
  /** The fleet execution's ARN, on AWS. */
  readonly executionArn?: string;
  /** The maintenance window's end (Unix ms), when the fleet has one. */
  readonly windowEnd?: number;
}

/** The state a fleet execution carries from "Plan fleet" on: O(1) in the fleet's size. */
export interface FleetState {
  readonly run: {
    readonly runId: string;
    readonly startedAt: number;
    readonly startedBy?: string;
    /** Where the run's record is kept and what it says (lib/steps/fleet/fleet-record.ts); absent: none (a dry run). */
    readonly history?: FleetHistoryRef;
  };
  /** The fleet's plan; the item list and the skipped list are in the plan store (`fleetKeys`). */
  readonly plan: {
    readonly itemsKey: string;
    readonly skippedKey: string;
    readonly resultsPrefix: string;
    readonly jobs: number;
    readonly allocations: number;
    readonly skipped: number;
    readonly namespaces: readonly string[];
    /** With `usesVariables`/`usesSecrets`: specifications read, and the consumers among them. */
    readonly consumers?: { readonly inspected: number; readonly consumers: number };
    /** With `stale`: how many variables each path's listing found, per namespace (a few entries). */
    readonly variables?: readonly {
      readonly namespace: string;
      readonly path: string;
      readonly found: number;
    }[];
  };
  /** `MaxConcurrencyPath` and `ToleratedFailureCountPath` of the Distributed Map. */
  readonly budget: { readonly maxJobs: number; readonly maxFailedJobs: number };
  /**
   * The one-job input every job shares (validated once by "Plan fleet"); each item adds its
   * `job`, `namespace` and `fleet`.
   */
  readonly jobOptions: Omit<RestartInput, 'job' | 'namespace'> & { readonly scope?: JobScope };
  readonly dryRun: boolean;
  /** The Distributed Map's output (`ResultWriterDetails`), once it ran. */
  readonly mapResult?: unknown;
  /** The Distributed Map's error, when it failed (e.g. `States.ExceedToleratedFailureThreshold`). */
  readonly mapError?: { readonly Error: string; readonly Cause: string };
}

/** The item processor's output for a job (what the ResultWriter records for it). */
export interface FleetJobResult {
  readonly job: string;
  readonly namespace: string;
  readonly fleet: FleetJobRef;
  readonly executionArn: string;
  /** The one-job execution's output (its `RunSummary`), or the lock holder's words. */
  readonly output: unknown;
}
