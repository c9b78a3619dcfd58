/**
 * A finished run's facts for tests of its summary and of what reads the summary (the run-end
 * notifier): job "example" in "default", 10 of 10 allocations restarted in place, from
 * 2026-11-29 02:00:00 UTC for 12m34.4s, no window, lock or schedule. Override what a test is about.
 */
import type { RunFacts } from '../../../lib/restart/run-summary';

/** When the run started (Unix ms). */
export const RUN_START = Date.parse('2026-11-29T02:00:00Z');

/** The facts, with `over` applied. */
export const runFacts = (over: Partial<RunFacts> = {}): RunFacts => ({
  outcome: 'succeeded',
  jobId: 'example',
  namespace: 'default',
  reschedule: false,
  planned: 10,
  restarted: 10,
  failed: 0,
  skipped: {},
  startedAt: RUN_START,
  finishedAt: RUN_START + 754_400,
  errors: [],
  omittedErrors: 0,
  windowEnd: null,
  windowReached: false,
  lockedBy: null,
  scheduleName: null,
  scheduledTime: null,
  ...over,
});
