/**
 * How a restart run ended, read from the end of one of its executions: its summary when it made
 * one (a Succeed state's output, the cause of `RestartFailed` / `UnrecoverableError`), else what
 * is known (the job from the input, how the execution ended, the counts from the run's record).
 * An execution that handed over to a continue-as-new successor has not ended the run. A fleet's
 * end is its summary's lines (`fleet-run-end.ts`).
 */
import { staleCount } from '../restart/freshness/stale';
import type { RunOutcome, RunSummary } from '../restart/run-summary';
import { ERROR_LIST_HEADER } from '../restart/text';
import type { EndedExecution } from './ended-execution';
import { EXECUTION_ALREADY_EXISTS } from './errors';
import { fleetEndOf } from './fleet-run-end';
import { type RunRecordView, runFactsOf, startedByOf } from './private/run-facts';
import { FailStates } from './state-names';

export type { RunRecordView } from './private/run-facts';

/** The run's end, as a notification tells it. */
export interface RunEnd {
  readonly executionArn: string;
  readonly outcome: RunOutcome;
  readonly jobId: string;
  readonly namespace: string;
  /** The summary's lines (`renderRunSummary`'s) without the error list. */
  readonly lines: readonly string[];
  /** Nomad's error list (`command/job_restart.go` `errorFormat`), or `''`. */
  readonly errorText: string;
  /** The error and cause the execution ended with, when no summary says it already. */
  readonly failure?: { readonly error: string; readonly cause: string };
  /** The input's `startedBy`. */
  readonly startedBy?: string;
  /**
   * With `startedBefore`: allocations the run's freshness report left stale, when any (a run that
   * ended "succeeded" can leave some: the report's re-read shows them).
   */
  readonly staleAllocations?: number;
}

/** What an ended execution means: the run goes on in a successor, or it ended. */
export type ExecutionEnd = { readonly kind: 'continued' } | ({ readonly kind: 'ended' } & RunEnd);

/** The Fail states whose cause is the run's summary text. */
const SUMMARY_FAILS: Readonly<Record<string, RunOutcome>> = {
  [FailStates.restartFailed]: 'failed',
  [FailStates.unrecoverableError]: 'unrecoverable',
};

/** Whether telling the end needs the run's record (no summary was made). */
export function needsRunRecord(e: EndedExecution): boolean {
  if (e.status === 'SUCCEEDED' || fleetEndOf(e) !== undefined) return false;
  return !(e.status === 'FAILED' && e.error !== undefined && SUMMARY_FAILS[e.error] !== undefined);
}

/** The summary's lines without the error list, and the list apart (chat shows it as a block). */
function splitErrorList(lines: readonly string[]): { lines: string[]; errorText: string } {
  const at = lines.findIndex((line) => ERROR_LIST_HEADER.test(line));
  return at < 0
    ? { lines: [...lines], errorText: '' }
    : { lines: lines.slice(0, at), errorText: lines.slice(at).join('\n') };
}

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? 'null') as unknown;
  } catch {
    return null;
  }
}

/** A Succeed state's output: the summary "Finish restart" made (its lines rendered then). */
const isSummary = (value: unknown): value is Pick<RunSummary, 'outcome' | 'jobId' | 'namespace' | 'lines'> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as RunSummary).outcome === 'string' &&
  typeof (value as RunSummary).jobId === 'string' &&
  typeof (value as RunSummary).namespace === 'string' &&
  Array.isArray((value as RunSummary).lines);

/** How many allocations a summary's freshness report left stale; 0 without a report. */
function staleOf(summary: object): number {
  const freshness = (summary as Partial<Pick<RunSummary, 'freshness'>>).freshness;
  return freshness != null && Array.isArray(freshness.stale) ? staleCount(freshness) : 0;
}

/**
 * "Continued in new execution" outputs the successor's ARN, or, when a retried start found the
 * successor already started, the `ExecutionAlreadyExists` failure its Catch wrote: either way
 * the run goes on there.
 */
function isHandOver(output: unknown): boolean {
  const handedOver = output as { executionArn?: unknown; Error?: unknown } | null;
  return (
    typeof handedOver?.executionArn === 'string' ||
    (typeof handedOver?.Error === 'string' && EXECUTION_ALREADY_EXISTS.includes(handedOver.Error))
  );
}

/**
 * How the run of `e` ended. `record` is the run's record from the plan store, when
 * {@link needsRunRecord} and the store has one.
 */
export function endOfExecution(e: EndedExecution, record?: RunRecordView): ExecutionEnd {
  const startedBy = startedByOf(e);
  const base = { executionArn: e.executionArn, ...(startedBy === undefined ? {} : { startedBy }) };
  const fromFacts = (outcome: RunOutcome): ExecutionEnd => {
    const summary = runFactsOf(e, outcome, record);
    const failure =
      e.error === undefined || outcome === 'canceled'
        ? {}
        : { failure: { error: e.error, cause: e.cause ?? '' } };
    return {
      kind: 'ended',
      ...base,
      outcome,
      jobId: summary.jobId,
      namespace: summary.namespace,
      ...splitErrorList(summary.lines),
      ...failure,
    };
  };
  const fleet = fleetEndOf(e);
  if (fleet !== undefined) return { kind: 'ended', ...base, ...fleet };
  if (e.status === 'SUCCEEDED') {
    const output = parseJson(e.output);
    if (isSummary(output)) {
      const stale = staleOf(output);
      return {
        kind: 'ended',
        ...base,
        outcome: output.outcome,
        jobId: output.jobId,
        namespace: output.namespace,
        ...splitErrorList(output.lines),
        ...(stale > 0 ? { staleAllocations: stale } : {}),
      };
    }
    if (isHandOver(output)) return { kind: 'continued' };
    return fromFacts('succeeded');
  }
  if (e.status === 'TIMED_OUT') return fromFacts('timed-out');
  if (e.status === 'ABORTED') return fromFacts('aborted');
  const summaryOutcome = e.error === undefined ? undefined : SUMMARY_FAILS[e.error];
  if (summaryOutcome !== undefined && e.cause !== undefined && e.cause !== '') {
    const facts = runFactsOf(e, summaryOutcome, undefined);
    return {
      kind: 'ended',
      ...base,
      outcome: summaryOutcome,
      jobId: facts.jobId,
      namespace: facts.namespace,
      ...splitErrorList(e.cause.split('\n')),
    };
  }
  return fromFacts(e.error === FailStates.canceled ? 'canceled' : 'error');
}
