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
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import type { SharedLockLog } from '../../lib/stores/shared-lock-settings';
import { logger } from './logger';
import { nomadClientOf } from './nomad-client-middleware';

/**
 * The local runs already warned: each invocation builds its own store, but one run's invocations
 * share its live sink. Weak, so a run's sink goes with the run.
 */
const warnedRuns = new WeakSet<LiveEventSink>();

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
    store: new NomadRunHistory(nomadClientOf(context), { log }),
    engine: engineOf(context),
    // The error's name and message only: a Nomad error carries its status and body, never the token.
    warn: (message, err) => log.warn(`${message}: ${err instanceof Error ? err.message : String(err)}`, {}),
  };
}
