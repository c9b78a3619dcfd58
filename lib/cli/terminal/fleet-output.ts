/**
 * What a fleet run prints at this terminal, on either engine: its events as the fleet's lines
 * (`lib/fleet/format.ts`), or one JSON object per line with `-output=json` (the one-job events
 * with their `job` and `namespace`, and the fleet's own events), and its error lines, a job's
 * prefixed like the job's other lines.
 */

import type { FleetJobName, FleetProgressEvent } from '../../fleet/events';
import { type FleetFormatter, jobPrefix } from '../../fleet/format';
import type { Formatter } from '../../restart/format';
import type { Question } from '../../restart/questions';
import type { OutputMode } from '../commands/command-flags';
import type { Terminal } from './terminal';

/** Prints a fleet's events. */
export function fleetEventWriter(output: OutputMode, formatter: FleetFormatter, terminal: Terminal) {
  return (event: FleetProgressEvent) => {
    if (output === 'json') terminal.write({ stream: 'stdout', text: JSON.stringify(event) });
    else for (const line of formatter.render(event)) terminal.write(line);
  };
}

/**
 * Prints one error line; a job's carries the job's prefix when several jobs run at once (their
 * lines interleave).
 */
export function fleetErrorWriter(formatter: FleetFormatter, terminal: Terminal, maxJobs: number) {
  return (message: string, job?: FleetJobName) =>
    terminal.write(
      formatter.job.renderError(job !== undefined && maxJobs > 1 ? `${jobPrefix(job)}${message}` : message),
    );
}

/** The one-job formatter with a job's questions worded by the fleet (each names its job). */
export function jobQuestionFormatter(formatter: FleetFormatter, job: FleetJobName): Formatter {
  return {
    ...formatter.job,
    renderQuestion: (question: Question, time: number) => formatter.renderJobQuestion(job, question, time),
  };
}
