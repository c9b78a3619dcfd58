/**
 * How a fleet run ended, for the run-end notifier: its summary's lines, from a Succeed state's
 * output or the cause of `FleetRestartFinishedWithErrors` (the summary's text). Job-less: a fleet's
 * message names no job, its lines name them.
 */
import type { EndedExecution } from './ended-execution';
import { FleetFailStates } from './fleet-state-names';

/** A fleet's end as a run end tells it (`RunEnd`'s fields, with no job). */
export interface FleetRunEnd {
  readonly outcome: 'succeeded' | 'failed';
  readonly jobId: '';
  readonly namespace: '';
  readonly lines: readonly string[];
  readonly errorText: '';
}

/** A fleet summary, as "Summarize fleet" outputs it (`FleetSummary`'s fields read here). */
const isFleetSummary = (value: unknown): value is { runId: string; lines: string[] } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { runId?: unknown }).runId === 'string' &&
  Array.isArray((value as { lines?: unknown }).lines);

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? 'null') as unknown;
  } catch {
    return null;
  }
}

/**
 * The end of a fleet execution that made its summary, or `undefined` for any other execution (a
 * one-job run's, or a fleet's that failed before its summary: those are told as any failed run).
 */
export function fleetEndOf(e: EndedExecution): FleetRunEnd | undefined {
  const ended = { jobId: '', namespace: '', errorText: '' } as const;
  if (e.status === 'SUCCEEDED') {
    const output = parseJson(e.output);
    return isFleetSummary(output) ? { ...ended, outcome: 'succeeded', lines: output.lines } : undefined;
  }
  if (e.status === 'FAILED' && e.error === FleetFailStates.fleetFinishedWithErrors && e.cause !== undefined)
    return { ...ended, outcome: 'failed', lines: e.cause.split('\n') };
  return undefined;
}
