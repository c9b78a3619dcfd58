/**
 * What a person at this terminal sees of a local run beyond Nomad's lines: the status line
 * (text output with stderr a TTY), or the `request-slow` events (`-output json`); and the Nomad
 * client configuration with the observer that feeds them. Text output without a terminal gets
 * neither, so its bytes stay exactly Nomad's.
 */

import type { NomadClientConfig } from '../../nomad/config';
import type { RequestObserver, SlowRequest } from '../../nomad/request-observer';
import { slowRequestObserver } from '../../nomad/request-observer';
import type { JobRestartCommandLine } from '../commands/job-restart-command';
import { requestSlowLine } from './json-output';
import { RunProgress } from './run-progress';
import { type StatusLineOutput, startStatusLine } from './status-line';
import { statusText } from './status-text';
import type { Terminal } from './terminal';

/** How long a request to Nomad may go unanswered (past a blocking query's hold) before it is shown. */
export const SLOW_REQUEST_MS = 10_000;

/** A run being watched at this terminal. */
export interface RunWatch {
  /** Where the run's lines go: the terminal, with the status line kept out of their way. */
  readonly terminal: Terminal;
  /** The run as far as it is known; feed it the run's events. */
  readonly progress: RunProgress;
  /** The command's Nomad configuration, with the observer when anything shows slow requests. */
  readonly nomad: NomadClientConfig;
  /** A state's output (the plan, the counters). */
  stateExited(state: unknown): void;
  /** The run has ended: the status line is erased. */
  stop(): void;
}

/** Starts watching a run of `line` at `terminal` (whose stderr and environment are `out`'s). */
export function watchRun(
  line: Pick<JobRestartCommandLine, 'output' | 'general'>,
  terminal: Terminal,
  out: StatusLineOutput,
  now: () => number = Date.now,
): RunWatch {
  const progress = new RunProgress();
  // Requests reported slow and not yet settled, oldest first (a Set keeps insertion order).
  const slow = new Set<SlowRequest>();
  const status =
    line.output === 'text'
      ? startStatusLine(terminal, out, () =>
          statusText(progress.snapshot(), now(), slow.values().next().value),
        )
      : undefined;
  const shown = status?.terminal ?? terminal;
  let observer: RequestObserver | undefined;
  if (status !== undefined)
    observer = slowRequestObserver({
      afterMs: SLOW_REQUEST_MS,
      onSlow: (request) => {
        slow.add(request);
        status.redraw();
      },
      onSettled: (request) => {
        slow.delete(request);
        status.redraw();
      },
      now,
    });
  else if (line.output === 'json')
    observer = slowRequestObserver({
      afterMs: SLOW_REQUEST_MS,
      onSlow: (request) => shown.write(requestSlowLine(request, now())),
      onSettled: () => undefined,
      now,
    });
  return {
    terminal: shown,
    progress,
    nomad: observer === undefined ? line.general.nomad : { ...line.general.nomad, observer },
    stateExited: (state) => {
      progress.stateExited(state);
      status?.redraw();
    },
    stop: () => status?.stop(),
  };
}
