/**
 * `-output json` at this terminal: one JSON object per line on stdout, for a program to read.
 * The one-job events carry the run's context (job, namespace, batch, running totals), and what
 * the text output says on stderr around them (a fatal error, a request Nomad has not answered)
 * comes as events of its own, so a reader of stdout never has to parse stderr's words.
 */
import type { SlowRequest } from '../../nomad/request-observer';
import type { ProgressEvent } from '../../restart/events';
import type { Formatter, OutputLine } from '../../restart/format';
import type { EventContext } from './run-progress';

/** The events of the command itself, beside the run's progress events. */
export type CommandEvent =
  /**
   * The run could not go on (the job does not exist, Nomad refused the token, a bad address):
   * the message the text output prints on stderr, and the job as given (exit 1 follows).
   */
  | { type: 'error'; time: number; message: string; job: string; namespace?: string }
  /** A request to Nomad has had no answer for a while (it goes on; its own time limit applies). */
  | { type: 'request-slow'; time: number; request: string; sentAt: number };

const jsonLine = (value: object): OutputLine => ({ stream: 'stdout', text: JSON.stringify(value) });

/** A progress event's line: the event, with the run's context once the plan named the job. */
export function progressEventLine(event: ProgressEvent, context: EventContext | undefined): OutputLine {
  return jsonLine(context === undefined ? event : { ...event, ...context });
}

/** The `request-slow` event's line. */
export function requestSlowLine(slow: SlowRequest, time: number): OutputLine {
  const event: CommandEvent = { type: 'request-slow', time, request: slow.request, sentAt: slow.sentAt };
  return jsonLine(event);
}

/**
 * `formatter` with each error line (`renderError`) written as an `error` event on stdout instead
 * of text on stderr: every fatal error of a JSON run is one event.
 * @param target the job and namespace as the command line gave them
 */
export function withJsonErrors(
  formatter: Formatter,
  target: { readonly job: string; readonly namespace?: string | undefined },
  now: () => number = Date.now,
): Formatter {
  return {
    ...formatter,
    renderError: (message) => {
      const event: CommandEvent = {
        type: 'error',
        time: now(),
        message,
        job: target.job,
        ...(target.namespace === undefined ? {} : { namespace: target.namespace }),
      };
      return jsonLine(event);
    },
  };
}
