/**
 * A fleet run's progress events: its own (planned, each job started and finished, the end) and
 * every one-job event of its jobs tagged with the job. The terminal prints them as lines (a
 * header per job, or a `[<namespace>/<job>] ` prefix with `-max-jobs` above 1); `-output json`
 * prints them as they are.
 */
import type { ProgressEvent } from '../restart/events';

/** Why a selected job is not restarted. Kinds, not failures, unless said otherwise. */
export type FleetSkipReason =
  | { kind: 'sysbatch' }
  | { kind: 'stopped'; status: string }
  | { kind: 'parameterized' }
  | { kind: 'periodic' }
  /** A dispatched or periodic child: finite batch work of its parent `parentId`. */
  | { kind: 'child'; parentId: string }
  | { kind: 'nothing-in-scope' }
  /**
   * With `startedBefore` or `-stale`: every allocation in scope (`allocations` of them) started
   * after `startedBefore` (Unix ms).
   */
  | { kind: 'fresh'; startedBefore: number; allocations: number }
  /**
   * With `-uses-variable`/`-uses-secret`: a task template is read from a file (`SourcePath`) or
   * names a path that is not a literal, so whether the job reads the path cannot be known from its
   * specification; `templates` names each, with why (`template "local/app.env" read from a file
   * ("local/app.tpl")`).
   */
  | { kind: 'not-inspectable'; templates: readonly string[] }
  /** Held by another run (`holder` in the lock's own words): not done, never a failure. */
  | { kind: 'locked'; holder: string }
  /** Never started: the failure budget ran out, the window ended, or the run was stopped. */
  | { kind: 'not-reached'; why: 'max-failed-jobs' | 'window-ended' | 'stopped' };

/**
 * Why a selected job ended without being restarted, as the fleet's summary lists it: a skip
 * decided by the plan ({@link FleetSkipReason}), or how a started job's execution ended.
 * Worded once, in `reasons.ts`.
 */
export type FleetJobProblem =
  | FleetSkipReason
  /** The job's execution failed: its error name and, in words, what went wrong. */
  | { kind: 'failed'; error: string; message: string }
  /** The maintenance window ended during the job's run: `done` of `of` allocations done. */
  | { kind: 'window-ended-midway'; done: number; of: number }
  /** The job's execution ended before its work did (stopped, or a "no" to its question). */
  | { kind: 'canceled'; message: string };

/** A job as the fleet names it. */
export interface FleetJobName {
  readonly namespace: string;
  readonly job: string;
}

/** How a job a fleet started ended. */
export type FleetJobOutcome = 'restarted' | 'failed' | 'locked' | 'stopped-at-window-end' | 'canceled';

export type FleetEvent =
  | {
      type: 'fleet-planned';
      time: number;
      /** Jobs to restart, in order, with their allocations in scope. */
      jobs: number;
      allocations: number;
      skipped: readonly (FleetJobName & { reason: FleetSkipReason })[];
      /** The namespaces the token could list (with `-namespace '*'`). */
      namespaces: readonly string[];
      /** With `-uses-variable`/`-uses-secret`: jobs whose specification was read, and the consumers. */
      consumers?: { readonly inspected: number; readonly consumers: number };
      /** With `-stale`: how many variables each path's listing found, per namespace. */
      variables?: readonly { readonly namespace: string; readonly path: string; readonly found: number }[];
    }
  | ({ type: 'job-started'; time: number; index: number; of: number } & FleetJobName)
  | ({
      type: 'job-finished';
      time: number;
      outcome: FleetJobOutcome;
      /** The failure's or the lock holder's words, when there are any. */
      reason?: string;
      executionArn?: string;
    } & FleetJobName)
  | {
      type: 'fleet-finished';
      time: number;
      restarted: number;
      failed: number;
      skipped: number;
      /** True when the summary line reads `Fleet restart finished with errors`. */
      withErrors: boolean;
      /** The jobs not restarted, with why, in the fleet's order (capped: `omittedProblems` more). */
      problems?: readonly (FleetJobName & { problem: FleetJobProblem })[];
      omittedProblems?: number;
      /** The plan-store key of the whole per-job report. */
      report?: string;
    };

/** A one-job event of a fleet's job: the event, with the job it belongs to. */
export type JobProgressEvent = ProgressEvent & FleetJobName;

/** Everything a fleet run emits. */
export type FleetProgressEvent = FleetEvent | JobProgressEvent;
