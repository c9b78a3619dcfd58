/**
 * Counters of a local run, read by tests and benchmarks.
 *
 * History events are an estimate of what Step Functions would write for the same run, so that
 * tests can check a definition stays under the 25,000-events-per-execution quota. The model,
 * after the Standard-workflow history event types:
 * - execution: `ExecutionStarted` + `ExecutionSucceeded|Failed|Aborted|TimedOut` = 2;
 * - every state: `<Type>StateEntered` + `<Type>StateExited` = 2 (a Fail state only enters: 1);
 * - a Task attempt adds `Scheduled` + `Started` + `Succeeded|Failed` = 3, plus `TaskSubmitted`
 *   for `.waitForTaskToken` and `states:startExecution`; so a Lambda task is 5, a callback 6,
 *   and each retried attempt 3 (or 4) more;
 * - Map and Parallel add `Started` + `Succeeded|Failed` = 2, and each Map iteration
 *   `MapIterationStarted` + `MapIterationSucceeded|Failed` = 2 (nested states count as above).
 */
export interface ExecutionStats {
  /** Executions run: 1, plus one per continue-as-new. */
  readonly executions: number;
  /** States entered, nested ones included (`StateEntered` events). */
  readonly stateEntries: number;
  /** Billed state transitions as Step Functions counts them: states entered plus retries. */
  readonly transitions: number;
  /** Retried attempts across all `Retry` fields. */
  readonly retries: number;
  /** States entered, by state name. */
  readonly stateCounts: Readonly<Record<string, number>>;
  /** Largest state input or output seen, in UTF-8 bytes of its JSON (Step Functions caps this at 262,144). */
  readonly maxPayloadBytes: number;
  /** Estimated history events, summed over the executions (see the model above). */
  readonly historyEvents: number;
  /** Estimated history events of the largest single execution (the quota is per execution). */
  readonly maxHistoryEvents: number;
  /** Wall-clock time of the run, in milliseconds. */
  readonly durationMs: number;
}

/** The part of an aws-local-stepfunctions event log entry the recorder reads. */
export interface EngineEvent {
  readonly type: string;
  readonly state?: {
    readonly name: string;
    readonly type: string;
    readonly input?: unknown;
    readonly output?: unknown;
  };
}

function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
}

/** Accumulates `ExecutionStats` for one execution from its event log. */
export class StatsRecorder {
  private stateEntries = 0;
  private retries = 0;
  private maxPayloadBytes = 0;
  private historyEvents = 0;
  private readonly stateCounts: Record<string, number> = {};
  private readonly lastAttemptFailed = new Set<string>();
  private readonly startedAt = Date.now();

  /** @param attemptEvents history events of one attempt of a Task state, by state name */
  constructor(private readonly attemptEvents: (stateName: string) => number) {}

  record(event: EngineEvent): void {
    const state = event.state;
    switch (event.type) {
      case 'ExecutionStarted':
      case 'ExecutionSucceeded':
      case 'ExecutionFailed':
      case 'ExecutionAborted':
      case 'ExecutionTimeout':
      case 'MapIterationStarted':
      case 'MapIterationSucceeded':
      case 'MapIterationFailed':
        this.historyEvents += 1;
        return;
      case 'StateEntered':
        if (state === undefined) return;
        this.stateEntries += 1;
        this.stateCounts[state.name] = (this.stateCounts[state.name] ?? 0) + 1;
        this.historyEvents += state.type === 'Map' || state.type === 'Parallel' ? 2 : 1;
        this.lastAttemptFailed.delete(state.name);
        this.maxPayloadBytes = Math.max(this.maxPayloadBytes, jsonBytes(state.input));
        return;
      case 'StateExited':
        if (state === undefined) return;
        this.historyEvents += state.type === 'Map' || state.type === 'Parallel' ? 2 : 1;
        // A caught failure exits without a successful attempt; its attempt was counted on failure.
        if (state.type === 'Task' && !this.lastAttemptFailed.has(state.name)) {
          this.historyEvents += this.attemptEvents(state.name);
        }
        this.maxPayloadBytes = Math.max(this.maxPayloadBytes, jsonBytes(state.output));
        return;
      case 'StateFailed':
        if (state?.type === 'Task') {
          this.historyEvents += this.attemptEvents(state.name);
          this.lastAttemptFailed.add(state.name);
        }
        if (state?.type === 'Map' || state?.type === 'Parallel') this.historyEvents += 1;
        return;
      case 'StateRetried':
        if (state !== undefined) this.lastAttemptFailed.delete(state.name);
        this.retries += 1;
        return;
      default:
        return;
    }
  }

  /** The two counters Step Functions limits, cheaply, after every event. */
  limited(): Pick<ExecutionStats, 'maxPayloadBytes' | 'historyEvents'> {
    return { maxPayloadBytes: this.maxPayloadBytes, historyEvents: this.historyEvents };
  }

  /** The counters so far, for one execution. */
  snapshot(): ExecutionStats {
    return {
      executions: 1,
      stateEntries: this.stateEntries,
      transitions: this.stateEntries + this.retries,
      retries: this.retries,
      stateCounts: { ...this.stateCounts },
      maxPayloadBytes: this.maxPayloadBytes,
      historyEvents: this.historyEvents,
      maxHistoryEvents: this.historyEvents,
      durationMs: Date.now() - this.startedAt,
    };
  }
}

/** Step Functions' limits that end an execution however its states are written. */
export const STEP_FUNCTIONS_LIMITS = {
  /** Largest state input or output, in UTF-8 bytes. */
  payloadBytes: 262_144,
  /** Most history events in one execution. */
  historyEvents: 25_000,
} as const;

/**
 * The failure Step Functions would end the execution with once `stats` passes a limit, or
 * `undefined`. A payload over the limit is `States.DataLimitExceeded`, which no `Catch` can
 * route; a history over it fails the execution outright.
 */
export function limitFailureOf(
  stats: Pick<ExecutionStats, 'maxPayloadBytes' | 'historyEvents'>,
): { error: string; cause: string } | undefined {
  if (stats.maxPayloadBytes > STEP_FUNCTIONS_LIMITS.payloadBytes) {
    return {
      error: 'States.DataLimitExceeded',
      cause: `A state's input or output is ${stats.maxPayloadBytes} bytes, over Step Functions' limit of ${STEP_FUNCTIONS_LIMITS.payloadBytes}`,
    };
  }
  if (stats.historyEvents > STEP_FUNCTIONS_LIMITS.historyEvents) {
    return {
      error: 'States.Runtime',
      cause: `The execution history reached ${stats.historyEvents} events, over Step Functions' limit of ${STEP_FUNCTIONS_LIMITS.historyEvents}`,
    };
  }
  return undefined;
}

/** Adds up the stats of a chain of executions (continue-as-new). */
export function sumStats(all: readonly ExecutionStats[], durationMs: number): ExecutionStats {
  const stateCounts: Record<string, number> = {};
  for (const stats of all) {
    for (const [name, count] of Object.entries(stats.stateCounts))
      stateCounts[name] = (stateCounts[name] ?? 0) + count;
  }
  const total = (pick: (stats: ExecutionStats) => number) => all.reduce((sum, stats) => sum + pick(stats), 0);
  const max = (pick: (stats: ExecutionStats) => number) =>
    all.reduce((most, stats) => Math.max(most, pick(stats)), 0);
  return {
    executions: total((s) => s.executions),
    stateEntries: total((s) => s.stateEntries),
    transitions: total((s) => s.transitions),
    retries: total((s) => s.retries),
    stateCounts,
    maxPayloadBytes: max((s) => s.maxPayloadBytes),
    historyEvents: total((s) => s.historyEvents),
    maxHistoryEvents: max((s) => s.maxHistoryEvents),
    durationMs,
  };
}
