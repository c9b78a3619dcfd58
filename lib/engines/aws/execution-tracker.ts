/**
 * Reads one execution's history the way the restart state machine writes it (see
 * `lib/workflow/definition.ts` and `batch-loop.ts`): the progress events each step put in its
 * output, the question the ask step parked and who answered it, the job it locked, the
 * execution that continued it (or may have: a hand-over cut short by a stop), and how it ended.
 * Pure: it is fed history events, oldest first, each once.
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import * as z from 'zod';
import type { ProgressEvent } from '../../restart/events';
import type { LockKey } from '../../stores/job-lock';
import type { ExecutionEnding } from '../../workflow/exit-status';
import type { PendingQuestion } from '../../workflow/payloads';
import { ASK_STATE_NAME, TASK_STATE_HANDLERS, TaskStates } from '../../workflow/state-names';
import { askOutcomeEvent } from './ask-outcome';
import { type RunIdentity, runIdentityOf, successorArnOf } from './run-identity';

/**
 * Task states whose result replaces the state, so their output's `events` are that step's own.
 * The ask step writes at `$.answer` and "Release lock after error" discards its result: their
 * outputs repeat the previous step's events, as Choice, Pass and Wait states do.
 */
const EVENT_STATES = new Set(
  Object.keys(TASK_STATE_HANDLERS).filter(
    (name) => name !== ASK_STATE_NAME && name !== TaskStates.releaseLockAfterError,
  ),
);
/** States after which this run holds the job lock. */
const LOCK_HOLDING_STATES = new Set<string>([TaskStates.lockJob, TaskStates.resumeRun]);

/** A question the execution waits on, read from the ask step's scheduled parameters. */
export interface PendingAsk {
  /** History id of the `TaskScheduled` event: one question is answered once. */
  readonly scheduledEventId: number;
  /** The task token (a credential: never print it). */
  readonly taskToken: string;
  readonly question: PendingQuestion;
  readonly jobId: string;
  readonly namespace: string;
}

/** How an execution ended. */
export type ExecutionEnd = ExecutionEnding;

const askParametersSchema = z.object({
  Payload: z.object({
    taskToken: z.string().min(1),
    jobId: z.string(),
    namespace: z.string(),
    question: z.object({
      kind: z.enum(['multiregion', 'proceed', 'pause']),
      prompt: z.string(),
      summary: z.string(),
    }),
  }),
});
const stepOutputSchema = z.object({
  events: z.array(z.object({ type: z.string(), time: z.number() }).loose()).optional(),
  plan: z.object({ jobId: z.string(), namespace: z.string() }).loose().nullish(),
  continuedAs: z.object({ executionArn: z.string() }).nullish(),
});

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The state of one execution, as far as its history has been read. */
export class ExecutionTracker {
  private askEnteredId: number | undefined;
  private scheduled: PendingAsk | undefined;
  private submitted = false;
  private planKey: LockKey | undefined;
  private lockHeld = false;
  private continuedAs: string | undefined;
  private handOverStarted = false;
  private identity: RunIdentity | undefined;
  private ended: ExecutionEnd | undefined;

  /**
   * @param executionArn the execution whose history this reads
   * @param inheritedLock the job locked by the execution this one continues: a continued
   *   execution runs under its run's lock from its first state on.
   */
  public constructor(
    private readonly executionArn: string,
    inheritedLock?: LockKey,
  ) {
    if (inheritedLock !== undefined) {
      this.planKey = inheritedLock;
      this.lockHeld = true;
    }
  }

  /** Applies one history event; returns the progress events it carries, in order. */
  public apply(event: HistoryEvent): ProgressEvent[] {
    switch (event.type) {
      case 'ExecutionStarted':
        this.identity = runIdentityOf(
          this.executionArn,
          parseJson(event.executionStartedEventDetails?.input),
        );
        return [];
      case 'TaskStateEntered':
        if (event.stateEnteredEventDetails?.name === TaskStates.continueAsNew) this.handOverStarted = true;
        if (event.stateEnteredEventDetails?.name === ASK_STATE_NAME) {
          this.askEnteredId = event.id;
          this.scheduled = undefined;
          this.submitted = false;
        }
        return [];
      case 'TaskScheduled':
        if (this.askEnteredId !== undefined) this.scheduleAsk(event);
        return [];
      case 'TaskSubmitted':
        if (this.scheduled !== undefined) this.submitted = true;
        return [];
      case 'TaskFailed':
      case 'TaskTimedOut':
      case 'TaskSubmitFailed':
        // A retry schedules the ask again, with a new token.
        this.submitted = false;
        return [];
      case 'TaskStateExited':
        return this.stepExited(event);
      case 'ExecutionSucceeded':
        this.ended = { status: 'SUCCEEDED', output: parseJson(event.executionSucceededEventDetails?.output) };
        return [];
      case 'ExecutionFailed':
        this.endWith('FAILED', event.executionFailedEventDetails);
        return [];
      case 'ExecutionAborted':
        this.endWith('ABORTED', event.executionAbortedEventDetails);
        return [];
      case 'ExecutionTimedOut':
        this.endWith('TIMED_OUT', event.executionTimedOutEventDetails);
        return [];
      default:
        return [];
    }
  }

  /** The question the execution waits on now (the ask Lambda has stored it), if any. */
  public get pendingAsk(): PendingAsk | undefined {
    return this.submitted ? this.scheduled : undefined;
  }

  /** The job this run has locked (the key cancel requests go to), once the lock is held. */
  public get lockedJob(): LockKey | undefined {
    return this.lockHeld ? this.planKey : undefined;
  }

  /** How the execution ended, once it has. */
  public get end(): ExecutionEnd | undefined {
    return this.ended;
  }

  /**
   * The execution this one continued as (continue-as-new), once it succeeded into it. A hand-over
   * whose retry found its successor already started ends without recording the ARN; the
   * successor's name says which it is.
   */
  public get successorArn(): string | undefined {
    if (this.ended?.status !== 'SUCCEEDED') return undefined;
    return this.continuedAs ?? this.possibleSuccessorArn;
  }

  /**
   * The execution the hand-over started or is starting, once "Continue as new execution" was
   * entered: after a stop that cut the hand-over short it may exist all the same.
   */
  public get possibleSuccessorArn(): string | undefined {
    if (!this.handOverStarted) return undefined;
    return this.continuedAs ?? (this.identity && successorArnOf(this.executionArn, this.identity));
  }

  private scheduleAsk(event: HistoryEvent): void {
    const parsed = askParametersSchema.safeParse(parseJson(event.taskScheduledEventDetails?.parameters));
    if (!parsed.success || event.id === undefined) return;
    const p = parsed.data.Payload;
    this.scheduled = {
      scheduledEventId: event.id,
      taskToken: p.taskToken,
      question: p.question,
      jobId: p.jobId,
      namespace: p.namespace,
    };
    this.submitted = false;
  }

  private stepExited(event: HistoryEvent): ProgressEvent[] {
    const name = event.stateExitedEventDetails?.name ?? '';
    if (name === ASK_STATE_NAME) {
      this.askEnteredId = undefined;
      this.scheduled = undefined;
      this.submitted = false;
      const time = event.timestamp?.getTime() ?? Date.now();
      const outcome = askOutcomeEvent(parseJson(event.stateExitedEventDetails?.output), time);
      return outcome === undefined ? [] : [outcome];
    }
    const isEventState = EVENT_STATES.has(name);
    if (!isEventState && name !== TaskStates.continueAsNew) return [];
    const parsed = stepOutputSchema.safeParse(parseJson(event.stateExitedEventDetails?.output));
    // An output that is not the workflow's state (or was truncated) carries nothing to show.
    if (!parsed.success) return [];
    const out = parsed.data;
    if (out.plan) this.planKey = { namespace: out.plan.namespace, jobId: out.plan.jobId };
    if (LOCK_HOLDING_STATES.has(name)) this.lockHeld = true;
    if (name === TaskStates.releaseLock) this.lockHeld = false;
    if (name === TaskStates.continueAsNew && out.continuedAs) this.continuedAs = out.continuedAs.executionArn;
    // The events are the workflow's own ProgressEvent objects (same repository, same types).
    return isEventState ? ((out.events ?? []) as ProgressEvent[]) : [];
  }

  private endWith(
    status: 'FAILED' | 'ABORTED' | 'TIMED_OUT',
    details: { error?: string | undefined; cause?: string | undefined } | undefined,
  ): void {
    this.ended = { status, error: details?.error ?? '', cause: details?.cause ?? '' };
  }
}
