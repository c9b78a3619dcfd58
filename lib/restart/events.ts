/**
 * Progress events: everything a restart has to say, as data. The engine emits them, the
 * workflow carries them in task output, and one formatter (`format.ts`) turns them into
 * Nomad's exact lines; chat and `-output=json` render the same events their own way.
 *
 * `time` is Unix milliseconds, taken when the thing happened (not when it is printed), so a
 * line rendered later from execution history still shows Nomad's timestamp.
 * Allocation, evaluation and deployment IDs are always full; the formatter shortens them.
 */
import type { ControlRequest } from '../control/requests';
import type { ReplacementCause } from './replacement-cause';
import type { RunLevelEvent } from './run/run-events';

/**
 * Why an allocation was left out of the plan (Nomad's `command/job_restart.go` `filterAllocs`, in
 * rule order).
 */
export type SkipReason =
  | { kind: 'status'; desiredStatus: string; clientStatus: string }
  | { kind: 'replaced'; nextAllocationId: string }
  | { kind: 'group' }
  | { kind: 'task' }
  /** Beyond Nomad: an earlier run of the same restart already restarted it (`resumeNextWindow`). */
  | { kind: 'done' }
  /**
   * Beyond Nomad (`startedBefore`): every task in scope last started at or after `startedBefore`
   * (Unix ms): the allocation is already fresh. Worded `started after <T>`.
   */
  | { kind: 'started-after'; startedBefore: number };

/** Why an allocation in scope is still stale when a run with `startedBefore` ends. */
export type StaleWhy =
  /** Its restart failed (or its replacement never ran). */
  | 'failed'
  /** The run ended before reaching it: window end, a stop, `-max-errors`, a lost lock. */
  | 'not-reached'
  /** Another run held the job's lock, so this one restarted nothing of it. */
  | 'locked';

/** One job's freshness at the end of a run with `startedBefore`, from its allocations re-read. */
export interface FreshnessReport {
  readonly namespace: string;
  readonly jobId: string;
  /** The time allocations had to start after (Unix ms). */
  readonly startedBefore: number;
  /** Allocations in scope when the run planned (running, not replaced, in the group/task/node scope). */
  readonly checked: number;
  /** Restarted by this run (in place or by a replacement that now runs). */
  readonly restarted: number;
  /**
   * Already started after `startedBefore` when planned, left alone (or planned but restarted by
   * something else than this run, as the re-read shows).
   */
  readonly alreadyFresh: number;
  /** Still started before `startedBefore` when re-read after the last batch, with why. */
  readonly stale: readonly { readonly allocationId: string; readonly why: StaleWhy }[];
  /** Stale allocations left out of `stale` to keep a workflow state small; absent when none. */
  readonly staleOmitted?: number;
}

/** A CloudWatch alarm a run watches (`-stop-on-alarm`), as `DescribeAlarms` last showed it in `ALARM`. */
export interface FiredAlarm {
  /** The alarm's name (an ARN given is read back as its name). */
  readonly name: string;
  /** `StateReason`, CloudWatch's words. */
  readonly reason: string;
  /** `StateUpdatedTimestamp` (Unix ms): since when it is in `ALARM`. */
  readonly since: number;
}

/** How one allocation is handled (Nomad's `command/job_restart.go` `handleAlloc`). */
export type RestartMode =
  | { kind: 'running-tasks' }
  | { kind: 'all-tasks' }
  | { kind: 'task'; task: string }
  | { kind: 'reschedule' };

export type ProgressEvent =
  | RunLevelEvent
  /** `==> <ts>: Restarting <n> allocation(s)` */
  | { type: 'restart-started'; time: number; count: number }
  /** `No allocations to restart` (no prefix). */
  | { type: 'nothing-to-restart'; time: number }
  /**
   * Beyond Nomad (`startedBefore`): `All <count> allocations started after <T>`, instead of
   * `No allocations to restart`, when every allocation in scope is already fresh (exit 0).
   */
  | { type: 'all-started-after'; time: number; count: number; startedBefore: number }
  /**
   * Beyond Nomad (`startedBefore`): the freshness report, after the last batch. Its last line,
   * `Every allocation in scope started after <T>`, only when `report.stale` is empty.
   */
  | { type: 'freshness'; time: number; report: FreshnessReport }
  /**
   * Beyond Nomad: the job's lock was held by a run that is no longer running (it ended without
   * releasing it) and this run took it over.
   */
  | { type: 'lock-taken-over'; time: number; jobId: string; previousRun: string; previousStatus: string }
  /**
   * Beyond Nomad: an earlier run of the job never ended (its execution was aborted or timed out);
   * this run leaves out the `skipped` allocations it already restarted, stopped or replaced.
   */
  | { type: 'earlier-run-resumed'; time: number; previousRun: string; skipped: number }
  /**
   * Beyond Nomad: the run goes on without the job's lock shared with other operators (a Nomad
   * variable), because the token may not take it; `reason` says what to grant.
   */
  | { type: 'shared-lock-skipped'; time: number; jobId: string; reason: string }
  /**
   * Beyond Nomad (issue #40): the run's record could not be written to the job's restart history
   * (a token without the variables capability, Nomad unreachable); the run goes on. Shown once per
   * run, as a warning on stderr.
   */
  | { type: 'history-not-recorded'; time: number; message: string }
  /**
   * Beyond Nomad: the run lost the job's lock (Nomad refused its renewal, or another run took it
   * over) and stops at this safe point, before another batch; `reason` says how and to whom,
   * `left` allocations are not restarted. The run ends with the reason among its errors.
   */
  | { type: 'lock-lost'; time: number; jobId: string; reason: string; left: number }
  /** Verbose `Skipping allocation ...` detail line. */
  | { type: 'allocation-skipped'; time: number; allocationId: string; reason: SkipReason }
  /** `==> <ts>: Restarting <ordinal> batch of <n> allocations` (only when the batch size is > 1). */
  | { type: 'batch-started'; time: number; batchNumber: number; size: number }
  /** `Restarting ... in allocation` / `Rescheduling allocation` detail line. */
  | { type: 'allocation-restarting'; time: number; allocationId: string; group: string; mode: RestartMode }
  /** Beyond Nomad, visible in the console: the system-job evaluation that places a replacement. */
  | { type: 'evaluation-triggered'; time: number; allocationId: string; jobId: string; evaluationId: string }
  /**
   * `Allocation "<a>" replaced by "<b>", waiting for "<b>" to start running`. `cause` (beyond
   * Nomad, in the JSON output and the execution history) says why Nomad placed `<b>`, as `<a>`
   * looked when the link was seen (replacement-cause.ts); absent in older states.
   */
  | {
      type: 'allocation-replaced';
      time: number;
      allocationId: string;
      replacementId: string;
      cause?: ReplacementCause;
    }
  /**
   * `Allocation "<a>" is "<status>"`. `verbose` marks the intermediate statuses that only
   * `-verbose` prints; the final `"running"` line is always printed.
   */
  | { type: 'allocation-status'; time: number; allocationId: string; status: string; verbose: boolean }
  /** `Still waiting for allocation "<a>" to be replaced`, every 60 s per waiting allocation. */
  | { type: 'still-waiting'; time: number; allocationId: string }
  /**
   * Beyond Nomad (`-wait-healthy`): `==> <ts>: Waiting for <n> allocations to become healthy`, as a
   * batch's health wait begins (its timings ride along for `-output=json` and chat).
   * `consulServices`: the Consul services whose checks it reads (`GET /v1/health/checks/<service>`,
   * blocking), absent when it reads none.
   */
  | {
      type: 'health-waiting';
      time: number;
      count: number;
      minHealthyTimeNs: number;
      healthyDeadlineNs: number;
      consulServices?: readonly string[];
    }
  /**
   * `Allocation "<a>" is healthy` (the allocation judged: the replacement with `-reschedule`).
   * `checks`: the service checks that passed (Nomad's and Consul's); 0 means judged on its tasks alone.
   */
  | { type: 'allocation-healthy'; time: number; allocationId: string; checks: number }
  /** Verbose: `Allocation "<a>" has no Nomad service checks, judged on its tasks alone`. */
  | { type: 'health-no-checks'; time: number; allocationId: string }
  /** Verbose: healthy, then not (`reason`): the `-min-healthy-time` count starts over. */
  | { type: 'health-reset'; time: number; allocationId: string; reason: string }
  /** `Still waiting for allocation "<a>" to become healthy: <reason>`, every 60 s per waiting allocation. */
  | { type: 'health-still-waiting'; time: number; allocationId: string; reason: string }
  /** Per-batch error warning written to stderr before a question (31-space indent). */
  | {
      type: 'batch-errors';
      time: number;
      errors: string[];
      /** Errors left out of `errors` to keep a workflow state small (see error-sample.ts). */
      omittedErrors?: number;
    }
  /** `Stopping job restart due to error` / `... due to unrecoverable error` */
  | { type: 'stopping'; time: number; reason: 'error' | 'unrecoverable-error' }
  /** Beyond Nomad: `Stopping job restart: <n> allocations failed, more than -max-errors=<v>` */
  | { type: 'max-errors-exceeded'; time: number; failed: number; maxErrors: string }
  /**
   * `Proceeding restarts with new wait time of <d>`. `waitNs`, when present, is the exact
   * Go duration (an answer like `1.5µs` has no exact millisecond form); else `waitMs` is used.
   */
  | { type: 'new-batch-wait'; time: number; waitMs: number; waitNs?: number }
  /** `Waiting <d> before restarting the next batch` (`waitNs` as above). */
  | { type: 'waiting'; time: number; waitMs: number; waitNs?: number }
  /**
   * Beyond Nomad: the maintenance window's end came before the next batch; the run stops there,
   * between batches. `done` allocations were restarted (or failed), `left` were not reached.
   */
  | { type: 'window-ended'; time: number; windowEnd: number; done: number; left: number }
  /** Beyond Nomad: a scheduled run found the job locked by another run (`holder`) and did nothing. */
  | { type: 'skipped-job-locked'; time: number; jobId: string; holder: string }
  /**
   * Beyond Nomad, for a run on AWS followed at a terminal: the question the run waited on was
   * answered (in chat, through the webhook or the console, or at another terminal); the workflow
   * reads `answer` as Nomad reads a typed one. `answeredBy` is absent when the answer did not say.
   */
  | { type: 'question-answered'; time: number; answer: string; answeredBy?: string }
  /** Beyond Nomad, as above: nobody answered within the approval timeout; Nomad's default (no) applies. */
  | { type: 'question-timed-out'; time: number }
  /** `Job restart canceled` (after a "no" to the proceed question). */
  | { type: 'canceled'; time: number }
  /**
   * Beyond Nomad (run control, lib/control/requests.ts): a pause request reached a safe point; the
   * run asks whether to resume (the question follows) and starts no batch until answered.
   */
  | { type: 'paused'; time: number; request: ControlRequest }
  /** Beyond Nomad: the pause was answered yes (`resume`, or yes to its question); the next batch follows. */
  | { type: 'resumed'; time: number; resumedBy: string }
  /** Beyond Nomad: a stop request reached a safe point; the run ends there as after a "no" (`canceled`). */
  | { type: 'stopped'; time: number; request: ControlRequest }
  /**
   * Beyond Nomad (`-stop-on-alarm`): a watched alarm is in `ALARM`: no further batch; the run ends
   * as after a failed batch, the alarm in its errors.
   */
  | { type: 'alarm-fired'; time: number; alarm: FiredAlarm }
  /** Beyond Nomad (`-bake-time`): the last batch is done; the alarms (and health) are watched until `until` (Unix ms). */
  | { type: 'baking'; time: number; until: number; alarms: readonly string[] }
  /** `\nJob restart canceled.` (after a "no" to the multi-region question; exit 0). */
  | { type: 'multiregion-declined'; time: number }
  /**
   * The end of a run: `Job restart finished` + success line, or `... finished with errors` +
   * the error list on stderr. `canceled` runs print only the errors, if any (Nomad's
   * `command/job_restart.go` `Run`).
   */
  | {
      type: 'finished';
      time: number;
      errors: string[];
      canceled: boolean;
      /** Errors left out of `errors` to keep a workflow state small (see error-sample.ts). */
      omittedErrors?: number;
    };

export type ProgressEventType = ProgressEvent['type'];

/** A sink for events as they happen; the local engine streams through it to the terminal. */
export type EmitProgress = (event: ProgressEvent) => void;
