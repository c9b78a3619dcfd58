/**
 * The summary of a finished run, as data and as text: the execution output a person reads in
 * the Step Functions console (and the `Cause` of a failed run), and what a notifier posts. One
 * pure function renders it, so the console, chat and any other reader say the same thing.
 */
import { formatGoDuration } from '../go/duration';
import { goQuote } from '../go/quote';
import type { FreshnessReport, SkipReason } from './events';
import { type FreshnessOfRun, freshnessOfRun, summaryFreshnessLines } from './freshness/lines';

import type { FleetJobRef } from './job-scope';
import type { RunOutcome } from './run/outcome';
import { formatErrorList } from './text';

export type { RunOutcome } from './run/outcome';

/**
 * Allocations left out of the plan, by reason (Nomad's `command/job_restart.go` `filterAllocs`);
 * only reasons that occurred appear.
 */
export interface SkippedCounts {
  /** Desired status not `run` or client status not `running`. */
  readonly notRunning?: number;
  /** Already replaced (`NextAllocation` set). */
  readonly alreadyReplaced?: number;
  /** In none of the requested groups (`-group`). */
  readonly notInGroups?: number;
  /** Has none of the requested tasks (`-task`). */
  readonly withoutTasks?: number;
  /** Restarted by an earlier run of the same maintenance (`resumeNextWindow`). */
  readonly alreadyRestarted?: number;
  /** Every task in scope started after `startedBefore`: already fresh. */
  readonly alreadyFresh?: number;
}

const SKIP_KEYS: Readonly<Record<SkipReason['kind'], keyof SkippedCounts>> = {
  status: 'notRunning',
  replaced: 'alreadyReplaced',
  group: 'notInGroups',
  task: 'withoutTasks',
  done: 'alreadyRestarted',
  'started-after': 'alreadyFresh',
};

const SKIP_WORDS: Readonly<Record<keyof SkippedCounts, string>> = {
  notRunning: 'not running',
  alreadyReplaced: 'already replaced',
  notInGroups: 'not in the requested groups',
  withoutTasks: 'without the requested tasks',
  alreadyRestarted: 'already restarted by an earlier run',
  alreadyFresh: 'started after the time given',
};

/** Counts skip reasons (the plan's skipped allocations) into {@link SkippedCounts}. */
export function countSkipped(reasons: Iterable<SkipReason>): SkippedCounts {
  const counts: Partial<Record<keyof SkippedCounts, number>> = {};
  for (const reason of reasons) {
    const key = SKIP_KEYS[reason.kind];
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** What a finished run did; everything {@link summarizeRun} needs. Times are Unix ms. */
export interface RunFacts {
  readonly outcome: RunOutcome;
  readonly jobId: string;
  readonly namespace: string;
  /** `-reschedule`: allocations were stopped and replaced, not restarted in place. */
  readonly reschedule: boolean;
  /** Allocations the plan was to restart. */
  readonly planned: number;
  /** Of those, restarted (or rescheduled) without error. */
  readonly restarted: number;
  /** Of those, failed. */
  readonly failed: number;
  readonly skipped: SkippedCounts;
  /** When the run's first execution started; `null` when unknown. */
  readonly startedAt: number | null;
  readonly finishedAt: number;
  /** The run's errors, a sample of them when long (error-sample.ts), and how many were left out. */
  readonly errors: readonly string[];
  readonly omittedErrors: number;
  /** The maintenance window's end, when the run had one. */
  readonly windowEnd: number | null;
  /** The run stopped because that end came. */
  readonly windowReached: boolean;
  /** The run holding the job's lock, when this run was skipped for it. */
  readonly lockedBy: string | null;
  /** Who stopped the run (run control: a `stop`, or a "no" to its pause question), when someone did. */
  readonly stoppedBy?: string | undefined;
  /** The schedule that started the run, when one did. */
  readonly scheduleName: string | null;
  readonly scheduledTime: number | null;
  /** The fleet run that started this one (its input's `fleet`), when one did. */
  readonly fleet?: FleetOfRun;
  /** The freshness report of a run with `startedBefore` that planned a restart (freshness/report.ts). */
  readonly freshness?: FreshnessReport;
}

/** A fleet run that started a one-job run: the fleet's run ID, and the job's place in its order. */
export type FleetOfRun = FleetJobRef;

/** The summary of a finished run: the execution output. Plain JSON; times are RFC 3339 (UTC). */
export interface RunSummary {
  readonly outcome: RunOutcome;
  readonly jobId: string;
  readonly namespace: string;
  /** Allocations restarted or rescheduled without error (the one count older readers use). */
  readonly restarted: number;
  readonly failed: number;
  readonly allocations: {
    /** `restart` in place, or `reschedule` (stop, then a replacement: `-reschedule`). */
    readonly mode: 'restart' | 'reschedule';
    readonly planned: number;
    readonly restarted: number;
    readonly rescheduled: number;
    readonly failed: number;
    /** Planned but never started: the run stopped before their batch. */
    readonly notReached: number;
    readonly skipped: SkippedCounts;
  };
  readonly startedAt: string | null;
  readonly finishedAt: string;
  /** Go duration, to the second, e.g. `12m5s`; `null` when the start is unknown. */
  readonly duration: string | null;
  /** The maintenance window, when the run had one, and whether the run stopped at its end. */
  readonly window: { readonly end: string; readonly reached: boolean } | null;
  /** The execution holding the job's lock, when this scheduled run was skipped for it. */
  readonly lockedBy: string | null;
  /** Who stopped a `canceled` run (run control), when someone did; absent otherwise. */
  readonly stoppedBy?: string;
  readonly schedule: { readonly name: string | null; readonly scheduledTime: string | null } | null;
  /** The fleet run that started this one, when one did: its console and its report are the fleet's. */
  readonly fleet: FleetOfRun | null;
  /**
   * With `startedBefore`: per allocation in scope, restarted, already fresh or still stale (with
   * why), from the job's allocations re-read after the last batch; `null` without it, or when the
   * run planned nothing.
   */
  readonly freshness: FreshnessOfRun | null;
  /** Nomad's error list (`command/job_restart.go` `errorFormat`, no indent); `''` when there are none. */
  readonly errorText: string;
  /** {@link renderRunSummary} of this summary: what to read first. */
  readonly lines: string[];
  /** The same lines joined by newlines: the `Cause` of a failed execution. */
  readonly text: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The summary of a finished run, its readable lines included. */
export function summarizeRun(facts: RunFacts): RunSummary {
  const done = facts.restarted + facts.failed;
  const data: Omit<RunSummary, 'lines' | 'text'> = {
    outcome: facts.outcome,
    jobId: facts.jobId,
    namespace: facts.namespace,
    restarted: facts.restarted,
    failed: facts.failed,
    allocations: {
      mode: facts.reschedule ? 'reschedule' : 'restart',
      planned: facts.planned,
      restarted: facts.reschedule ? 0 : facts.restarted,
      rescheduled: facts.reschedule ? facts.restarted : 0,
      failed: facts.failed,
      notReached: Math.max(0, facts.planned - done),
      skipped: facts.skipped,
    },
    startedAt: facts.startedAt === null ? null : iso(facts.startedAt),
    finishedAt: iso(facts.finishedAt),
    duration:
      facts.startedAt === null
        ? null
        : formatGoDuration(Math.max(0, Math.round((facts.finishedAt - facts.startedAt) / 1000)) * 1e9),
    window: facts.windowEnd === null ? null : { end: iso(facts.windowEnd), reached: facts.windowReached },
    lockedBy: facts.lockedBy,
    ...(facts.stoppedBy === undefined ? {} : { stoppedBy: facts.stoppedBy }),
    schedule:
      facts.scheduleName === null && facts.scheduledTime === null
        ? null
        : {
            name: facts.scheduleName,
            scheduledTime: facts.scheduledTime === null ? null : iso(facts.scheduledTime),
          },
    fleet:
      facts.fleet === undefined
        ? null
        : { runId: facts.fleet.runId, index: facts.fleet.index, of: facts.fleet.of },
    freshness: facts.freshness === undefined ? null : freshnessOfRun(facts.freshness, iso),
    errorText: facts.errors.length > 0 ? formatErrorList(facts.errors, 0, facts.omittedErrors) : '',
  };
  const lines = renderRunSummary(data);
  return { ...data, lines, text: lines.join('\n') };
}

function headline(s: Omit<RunSummary, 'lines' | 'text'>): string {
  switch (s.outcome) {
    case 'succeeded':
      return s.allocations.planned === 0 ? 'succeeded, no allocations to restart' : 'succeeded';
    case 'canceled':
      return s.stoppedBy === undefined ? 'canceled' : `canceled, stopped by ${s.stoppedBy}`;
    case 'failed':
      return 'finished with errors';
    case 'unrecoverable':
      return 'stopped on an unrecoverable error';
    case 'stopped-at-window-end':
      return `stopped at the end of its maintenance window (${s.window?.end ?? 'unknown'})`;
    case 'skipped-job-locked':
      return `skipped, the job is already being restarted by execution ${goQuote(s.lockedBy ?? 'unknown')}`;
    case 'aborted':
      return 'aborted, the execution was stopped';
    case 'timed-out':
      return 'timed out, the execution ran out of time';
    case 'error':
      return 'stopped by an error';
  }
}

/** When a run started and finished, and how long it took (a one-job run's or a fleet's). */
export function runTimeLine(s: {
  readonly startedAt: string | null;
  readonly finishedAt: string;
  readonly duration: string | null;
}): string {
  return s.startedAt === null
    ? `Finished ${s.finishedAt}`
    : `Started ${s.startedAt}, finished ${s.finishedAt}, took ${s.duration ?? 'unknown'}`;
}

/**
 * The summary as text lines, for the console, a chat message or a log: the outcome, the
 * allocation counts (skipped by reason), the window, the time taken, who started the run, and
 * Nomad's error list. Reads only what a {@link RunSummary} carries, so a notifier can render
 * an execution's output without anything else.
 */
export function renderRunSummary(s: Omit<RunSummary, 'lines' | 'text'>): string[] {
  const a = s.allocations;
  const lines = [`Restart of job ${goQuote(s.jobId)} in namespace ${goQuote(s.namespace)}: ${headline(s)}`];
  if (s.outcome !== 'skipped-job-locked' && a.planned > 0) {
    const parts = [
      a.mode === 'reschedule' ? `${a.rescheduled} rescheduled` : `${a.restarted} restarted`,
      `${a.failed} failed`,
    ];
    if (a.notReached > 0) parts.push(`${a.notReached} not reached`);
    lines.push(`Allocations: ${a.planned} planned, ${parts.join(', ')}`);
  }
  const skipped = (Object.keys(SKIP_WORDS) as (keyof SkippedCounts)[])
    .filter((key) => (a.skipped[key] ?? 0) > 0)
    .map((key) => `${a.skipped[key]} ${SKIP_WORDS[key]}`);
  if (skipped.length > 0) lines.push(`Skipped: ${skipped.join(', ')}`);
  if (s.window !== null) {
    const done = a.restarted + a.rescheduled + a.failed;
    lines.push(
      s.window.reached
        ? `Maintenance window: ended ${s.window.end}, ${done} of ${a.planned} allocations done, ${a.notReached} left`
        : `Maintenance window: until ${s.window.end}`,
    );
  }
  if (s.freshness !== null) {
    lines.push(...summaryFreshnessLines(s.freshness));
  }
  lines.push(runTimeLine(s));
  if (s.fleet !== null)
    lines.push(`Started by fleet run ${goQuote(s.fleet.runId)} (job ${s.fleet.index} of ${s.fleet.of})`);
  if (s.schedule !== null) {
    const name = s.schedule.name === null ? 'a schedule' : `schedule ${goQuote(s.schedule.name)}`;
    const when = s.schedule.scheduledTime === null ? '' : ` for ${s.schedule.scheduledTime}`;
    lines.push(`Started by ${name}${when}`);
  }
  if (s.errorText !== '') lines.push(...s.errorText.split('\n'));
  return lines;
}
