/**
 * The job's run history (lib/history) a handler writes its run's record to: Nomad variables
 * (lib/stores/nomad-run-history.ts) over the invocation's Nomad client, so a run's record lives
 * where its job lives, whichever engine ran it.
 *
 * Whatever keeps a record from being written is a warning, never a failure: a structured log line
 * on Lambda, and at a terminal one line on stderr per run (a token without the variables
 * capability, the most likely cause, would otherwise repeat it at every write of the run).
 */
import type { Context } from 'aws-lambda';
import type { HistoryDeps } from '../../lib/steps/kit/job-history';
import { clockOf, engineOf, type LiveEventSink, liveEventsOf } from '../../lib/steps/kit/local-invocation';
import { NomadRunHistory, type WrittenHistories } from '../../lib/stores/nomad-run-history';
import type { SharedLockLog } from '../../lib/stores/shared-lock-settings';
import { logger } from './logger';
import { nomadClientOf } from './nomad-client-middleware';

/**
 * The local runs already warned: each invocation builds its own store, but one run's invocations
 * share its live sink. Weak, so a run's sink goes with the run.
 */
const warnedRuns = new WeakSet<LiveEventSink>();

/**
 * What each local run last wrote to its histories, shared by its invocations (keyed, like
 * {@link warnedRuns}, by the run's live sink): its final record is written at the index its
 * provisional one got, without reading the history again. On AWS each step is its own Lambda
 * function, with nothing shared between them: there the final write reads first.
 */
const writtenByRun = new WeakMap<LiveEventSink, WrittenHistories>();

/** What the local run of `live` wrote to its histories so far; none on AWS. */
function writtenOf(live: LiveEventSink | undefined): WrittenHistories | undefined {
  if (live === undefined) return undefined;
  const known = writtenByRun.get(live) ?? new Map();
  writtenByRun.set(live, known);
  return known;
}

/** Where this invocation's history warnings go: the log, and once per run the terminal. */
function historyLog(context: Context): SharedLockLog {
  const live = liveEventsOf(context);
  return {
    debug: (message, fields) => logger.debug(message, fields),
    warn: (message, fields) => {
      logger.warn(message, fields);
      if (live === undefined || warnedRuns.has(live)) return;
      warnedRuns.add(live);
      live({ type: 'history-not-recorded', time: clockOf(context)(), message });
    },
  };
}

/** The run history for this invocation (needs the Nomad client: `stepHandler(..., { nomad: true })`). */
export function runHistoryFor(context: Context): HistoryDeps {
  const log = historyLog(context);
  return {
    store: new NomadRunHistory(nomadClientOf(context), { log, written: writtenOf(liveEventsOf(context)) }),
    engine: engineOf(context),
    // The error's name and message only: a Nomad error carries its status and body, never the token.
    warn: (message, err) => log.warn(`${message}: ${err instanceof Error ? err.message : String(err)}`, {}),
  };
}
