/**
 * The progress events of a local run, each passed on once: a running step streams its events
 * live, and a state's output repeats them.
 */
import type { ProgressEvent } from '../../restart/events';
import type { WorkflowState } from '../../workflow/payloads';

/**
 * Every progress event once, as soon as it is known: live from a running step, or from a
 * state's output (Choice and Pass states repeat the last step's events; a step's result repeats
 * what it streamed).
 */
export function eventSink(emit: (event: ProgressEvent) => void) {
  const seen = new Set<string>();
  const live = (event: ProgressEvent) => {
    // A state keeps a sample of a long error list (error-sample.ts): the same event as the
    // full one shown live, so the lists do not count in telling events apart.
    const key = JSON.stringify({ ...event, errors: undefined, omittedErrors: undefined });
    if (seen.has(key)) return;
    seen.add(key);
    emit(event);
  };
  const fromOutput = (output: unknown) => {
    const events = (output as Partial<WorkflowState> | null)?.events;
    if (Array.isArray(events)) for (const event of events) live(event);
  };
  return { live, fromOutput };
}
