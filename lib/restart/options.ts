/**
 * `RestartOptions`: the validated options of one restart, the single type shared by the
 * CLI, console input, schedules and chat approvals. Plain JSON: it travels in Step
 * Functions state as it is.
 */
import type { FleetJobRef, JobScope } from './job-scope';

/**
 * The special `-batch-wait` and `-on-error` value `ask`: pause and ask a human (at the
 * terminal, or through a task-token approval in the workflow).
 */
export const ASK = 'ask';

/** The special `-on-error` value `fail`: stop the restart after the first batch with errors. */
export const FAIL = 'fail';

/** What to do when a batch has errors. */
export type OnError = typeof ASK | typeof FAIL;

/** `n` allocations per batch, or `n%` of the eligible allocations (rounded up). */
export interface BatchSize {
  value: number;
  percent: boolean;
}

/** Between batches: ask, or wait a Go duration (nanoseconds; ≤ 0 means no wait). */
export type BatchWait = { kind: 'ask' } | { kind: 'duration'; ns: number };

/** Validated options; see Nomad's `command/job_restart.go` `Help` for each flag. */
export interface RestartOptions {
  /** Job ID or ID prefix, trimmed. */
  job: string;
  /** Namespace for every request (`*` searches all namespaces for the prefix). */
  namespace?: string;
  region?: string;
  batchSize: BatchSize;
  batchWait: BatchWait;
  onError: OnError;
  /** `-yes`: auto-confirm questions, keep going after recoverable errors. */
  yes: boolean;
  /** Deduplicated `-group` values, first occurrence order. */
  groups: string[];
  /** Deduplicated `-task` values, first occurrence order. */
  tasks: string[];
  allTasks: boolean;
  /** `-reschedule`: stop each allocation and let the scheduler place a replacement. */
  reschedule: boolean;
  /** Only with `reschedule`: sends `no_shutdown_delay=true` on the stop call. */
  noShutdownDelay: boolean;
  /** Full IDs and the verbose-only lines. */
  verbose: boolean;
  /** Beyond Nomad: give up waiting for a replacement after this many nanoseconds (> 0). */
  replacementTimeoutNs?: number;
  /** Beyond Nomad: with `yes`, stop once more than this many allocations have failed. */
  maxErrors?: { value: number; percent: boolean };
  /** Beyond Nomad: plan only, no write to Nomad. */
  dryRun: boolean;
  /** Beyond Nomad (`-wait-healthy`): each batch waits until its allocations are healthy again. Absent: off. */
  waitHealthy?: HealthGate;
  /**
   * Beyond Nomad: the maintenance window's end (Unix ms). No batch starts at or after it; a run
   * still going stops at the next safe point, between batches (see window.ts).
   */
  windowEnd?: number;
  /**
   * Beyond Nomad: the window's length in nanoseconds, from the scheduled time (else the run's
   * start). "Validate input" turns it into `windowEnd`, so later steps see only the end.
   */
  windowDurationNs?: number;
  /** Set by a schedule (`"schedule"`): a run that finds the job locked by another is skipped. */
  trigger?: 'schedule';
  /** The schedule that started the run, for its summary. */
  scheduleName?: string;
  /** When that schedule fired (Unix ms); a `windowDurationNs` counts from here. */
  scheduledTime?: number;
  /**
   * A run stopped at its window's end leaves what it restarted to the schedule's next run, which
   * restarts only the rest (one maintenance across windows); needs `scheduleName`.
   */
  resumeNextWindow?: boolean;
  /**
   * Beyond Nomad (`-started-before`, and a fleet's `-stale`): only allocations with a task in scope
   * (the tasks the restart would restart) whose last start, `TaskStates[task].StartedAt`, is before
   * this time (Unix ms) are restarted; one started at it or after is fresh, skipped as
   * `started-after`. Always absolute here: a relative `2h` is resolved once, against the run's
   * start, where the input is validated, so a resumed run keeps the same time.
   */
  startedBefore?: number;
  /**
   * Beyond Nomad (`-stop-on-alarm`): CloudWatch alarm names or ARNs read before each batch and
   * during health waits; one in `ALARM` stops the run as a failed batch does.
   */
  stopOnAlarms?: string[];
  /**
   * Beyond Nomad (`-bake-time`, needs `stopOnAlarms` or `waitHealthy`): after the last batch, the
   * alarms (and the health gate) are watched this many milliseconds before the run succeeds.
   */
  bakeTimeMs?: number;
  /**
   * Beyond Nomad (`-reason`, issue #40): why the run was started (a ticket, a sentence), kept in the
   * job's run history (lib/history). One line, at most `MAX_REASON_LENGTH` characters.
   */
  reason?: string;
  /** Set by a fleet run that started this one: which fleet, and this job's place in it. */
  fleet?: FleetJobRef;
  /** Set by a fleet run with a node scope: only allocations on these nodes are restarted. */
  scope?: JobScope;
}

/** The timings of the health gate (`-wait-healthy`), Nomad's `update` block names. */
export interface HealthGate {
  /** `-min-healthy-time`: healthy without a break this long (nanoseconds, ≥ 0). */
  minHealthyTimeNs: number;
  /** `-healthy-deadline`: an allocation not healthy this long after the wait began fails (nanoseconds, > 0). */
  healthyDeadlineNs: number;
}

/** Default `-batch-size`. */
export const DEFAULT_BATCH_SIZE = '1';
/** Default `-batch-wait`. */
export const DEFAULT_BATCH_WAIT = '0s';
/** Default `-on-error` (which is why a non-interactive run needs `-yes` or `-on-error=fail`). */
export const DEFAULT_ON_ERROR: OnError = ASK;

/** Default `-min-healthy-time` (Nomad's `update` block default). */
export const DEFAULT_MIN_HEALTHY_TIME = '10s';
/** Default `-healthy-deadline` (Nomad's `update` block default). */
export const DEFAULT_HEALTHY_DEADLINE = '5m';

/** `10` or `10%`, as the user would type it (used in messages such as `-max-errors=<v>`). */
export function formatCount(count: { value: number; percent: boolean }): string {
  return `${count.value}${count.percent ? '%' : ''}`;
}
