/**
 * "Lock job": one restart per job. A second run fails fast naming the holder (a scheduled run is
 * skipped instead, with its own summary: it is not queued and pages no one), unless the holder is
 * no longer running (it ended without releasing the lock): then this run takes the lock over and
 * says so. The lease never decides on its own, except for the job's shared lock in Nomad held by a
 * run this engine cannot ask about (another laptop): only its holder or Nomad's TTL frees that one.
 */
import type { FreshnessReport, ProgressEvent } from '../../restart/events';
import { summarizeRun } from '../../restart/run-summary';
import { skipsWhenLocked } from '../../restart/window';
import { describeHolder, LockHeldError, SharedLockHeldError } from '../../stores/errors';
import type { RunStatus } from '../../stores/run-status';
import { JobLockedError } from '../../workflow/errors';
import type { RunRef, Summary } from '../../workflow/payloads';
import type { PlannedStepInput, StepEvents } from '../../workflow/restart-steps';
import { readFreshness } from '../kit/freshness-read';
import { recordRunEnded, recordRunStarted, restartsNothing } from '../kit/job-history';
import type { StepKit } from '../kit/step-kit';
import { jobRunKey, recordRunHoldsJob } from '../plan/earlier-run';
import { controlReadAt } from './control-read';
import { type JobLocks, leaseOf, lockKeyOf } from './job-locks';
import { renewedAt } from './lease-renewal';

/** What "Lock job" came to. */
export interface TakeLockOutput extends StepEvents {
  /**
   * The run holds the job (`taken-over` from a run no longer running), or, scheduled, was skipped;
   * `unneeded` when its plan restarts nothing (no lock is taken).
   */
  readonly outcome: 'taken' | 'taken-over' | 'skipped' | 'unneeded';
  /** A skipped run's summary (the execution's output, naming the holder); `null` when taken. */
  readonly summary: Summary | null;
  /** The run, with the time it took the job's locks when it took them (lease-renewal.ts). */
  readonly run: RunRef;
}

/**
 * The run of `input` holding its job's locks from `takenAt`: its lease counts from then, and so
 * does the interval before its first read of a run-control request, as no request for the job can
 * name it before it holds the job (control-read.ts). Except in a fleet: the fleet's request may
 * be older than the job's run (a job the Map starts while its fleet is paused), so the job's first
 * safe point reads it.
 */
function heldFrom({ run, options }: PlannedStepInput, takenAt: number): RunRef {
  const renewed = renewedAt(run, takenAt);
  return options.fleet === undefined ? controlReadAt(renewed, takenAt) : renewed;
}

/** Who holds the job: an execution, or a run named by the shared lock's variable. */
function holderName(err: LockHeldError): string {
  if (!(err instanceof SharedLockHeldError)) return `execution "${err.holder}"`;
  // The holder is written into the variable's items: a token without "read" cannot see them.
  if (err.details === undefined) return 'another run (its lock in Nomad does not say which to this token)';
  return `run "${err.holder}"${describeHolder(err.details)}`;
}

/**
 * Whether the run holding the lock still runs, from the status of the execution the lock names as
 * running it. `SUCCEEDED` with the lock still held means it continued as new: every other way out
 * of an execution releases the lock first ("Release lock"), and the successor names itself in the
 * lock as it starts ("Resume run"), so the chain, not its first link, decides.
 */
const stillRuns = (status: RunStatus): boolean => status === 'RUNNING' || status === 'SUCCEEDED';

/**
 * The summary of a scheduled run skipped because `holder` keeps the job (the execution's output),
 * with its freshness report when it has one.
 */
function skippedSummary(
  { options, run, plan }: PlannedStepInput,
  holder: string,
  now: number,
  freshness: FreshnessReport | undefined,
) {
  return summarizeRun({
    outcome: 'skipped-job-locked',
    jobId: plan.jobId,
    namespace: plan.namespace,
    reschedule: options.reschedule,
    planned: plan.allocationCount,
    restarted: 0,
    failed: 0,
    skipped: plan.skipped ?? {},
    startedAt: run.startedAt ?? null,
    finishedAt: now,
    errors: [],
    omittedErrors: 0,
    windowEnd: options.windowEnd ?? null,
    windowReached: false,
    lockedBy: holder,
    scheduleName: options.scheduleName ?? null,
    scheduledTime: options.scheduledTime ?? null,
    ...(options.fleet === undefined ? {} : { fleet: options.fleet }),
    ...(freshness === undefined ? {} : { freshness }),
  });
}

/** "Lock job" for the run of `input` (see `LockSteps.take`). */
export async function takeLockStep(
  kit: StepKit,
  { lock, runs, leaseSeconds }: JobLocks,
  input: PlannedStepInput,
): Promise<TakeLockOutput> {
  const { run, plan } = input;
  const key = lockKeyOf(plan);
  const lease = leaseOf(run, leaseSeconds);
  // Not shown live: the plan's lines, held until now, come first (the handler puts them there).
  const { events, emit } = kit.recorder({ live: false });
  const held = (err: LockHeldError) =>
    new JobLockedError(
      `Job "${plan.jobId}" in namespace "${plan.namespace}" is already being restarted by ${holderName(err)}`,
      { cause: err },
    );
  // The job's record names the run holding it, so a run after one that never ended resumes it.
  const holdsJob = async () => {
    await recordRunHoldsJob(kit.planStore, jobRunKey(plan.namespace, plan.jobId), run.runId, plan.planKey);
    const skipped = lock.sharedSkipped;
    if (skipped !== undefined)
      emit({ type: 'shared-lock-skipped', time: kit.now(), jobId: plan.jobId, reason: skipped.message });
    // The job is this run's: its provisional record, so a run that dies from here shows as such.
    await recordRunStarted(kit, input, emit);
  };
  // Another run keeps the job: this one fails, or, scheduled, is skipped.
  const lockedOut = async (by: LockHeldError): Promise<TakeLockOutput> => {
    if (!skipsWhenLocked(input.options)) throw held(by);
    const now = kit.now();
    emit({ type: 'skipped-job-locked', time: now, jobId: plan.jobId, holder: by.holder });
    // With `startedBefore`: every planned allocation stays stale, `locked` (no failure, exit 0).
    const freshness = await readFreshness(kit, input.options, plan, {
      reachedBatches: 0,
      failed: new Set(),
      locked: true,
    });
    if (freshness !== undefined) emit({ type: 'freshness', time: now, report: freshness });
    // Its only record: a scheduled run skipped is a run that ended, and says who kept the job.
    await recordRunEnded(
      kit,
      { ...input, progress: null },
      { outcome: 'skipped-job-locked', endedAt: now, errors: [held(by).message] },
      emit,
    );
    return { outcome: 'skipped', summary: skippedSummary(input, by.holder, now, freshness), events, run };
  };
  // A plan that restarts nothing touches no allocation: no other run can be in its way, and
  // Nomad's own command makes no request past the plan's, so neither does this run.
  if (restartsNothing(plan)) {
    await recordRunStarted(kit, input, emit);
    return { outcome: 'unneeded', summary: null, events, run };
  }
  try {
    // Read before the request: the lease Nomad grants runs from no earlier than this.
    const takenAt = kit.now();
    await lock.take(key, lease);
    await holdsJob();
    return { outcome: 'taken', summary: null, events, run: heldFrom(input, takenAt) };
  } catch (err) {
    if (!(err instanceof LockHeldError)) throw err;
    if (err instanceof SharedLockHeldError && !err.askable) return lockedOut(err);
    // A holder that cannot be asked about keeps its lock: failing safe means not restarting.
    const status = await runs.status(err.holderExecution ?? err.holder);
    if (stillRuns(status)) return lockedOut(err);
    const takenAt = kit.now();
    try {
      await lock.takeOver(key, lease, err.holder);
    } catch (race) {
      if (race instanceof LockHeldError) throw held(race);
      throw race;
    }
    await holdsJob();
    const takenOver: ProgressEvent = {
      type: 'lock-taken-over',
      time: kit.now(),
      jobId: plan.jobId,
      previousRun: err.holder,
      previousStatus: status,
    };
    emit(takenOver);
    return { outcome: 'taken-over', summary: null, events, run: heldFrom(input, takenAt) };
  }
}
