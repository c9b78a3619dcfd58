/**
 * A fleet step's access to the run history (issue #40): the history in Nomad through the
 * handler's own client, the engine it runs on (a terminal's local engine attaches its live view to
 * the context; Lambda does not), and the logger for a write that failed.
 */
import type { Context } from 'aws-lambda';
import type { HistoryDeps } from '../../lib/steps/kit/job-history';
import { liveEventsOf } from '../../lib/steps/kit/local-invocation';
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import { logger } from './logger';
import { nomadClientOf } from './nomad-client-middleware';

/** The fleet step's history; needs the Nomad client (`stepHandler(..., { nomad: true })`). */
export function fleetHistoryFor(context: Context): HistoryDeps {
  return {
    // A token that may not write the history is the store's to report, once, as a warning.
    store: new NomadRunHistory(nomadClientOf(context), { log: logger }),
    engine: liveEventsOf(context) === undefined ? 'aws' : 'terminal',
    warn: (message, err) => logger.warn(message, { error: err instanceof Error ? err.message : String(err) }),
  };
}
