/**
 * The fleet's lines: the one-job formatter (`lib/restart/format.ts`) for every job's own events,
 * plus the fleet's header, each job's opening line and the summary block. With `-max-jobs 1` jobs
 * run one after another: each opens with `==> <ts>: Restarting job "<job>" in namespace "<ns>"
 * (<k> of <J>)` and its lines are exactly the one-job command's. With `-max-jobs` above 1 the jobs'
 * lines interleave, so every line of a job, its opening line included, starts with
 * `[<namespace>/<job>] `.
 */
import { goQuote } from '../go/quote';
import { createFormatter, type Formatter, type FormatterOptions, type OutputLine } from '../restart/format';
import type { Question } from '../restart/questions';
import type { FleetEvent, FleetJobName, FleetProgressEvent, JobProgressEvent } from './events';
import { consumerLines } from './format-consumers';
import { problemText } from './reasons';
import { fleetHeadline, omittedLine, problemLine } from './summary';

/** The one-job formatter's options, and the fleet's budget its lines name. */
export interface FleetFormatterOptions extends FormatterOptions {
  /** `-max-jobs`: above 1, a job's lines carry its `[<namespace>/<job>] ` prefix. */
  readonly maxJobs: number;
  /** `-max-failed-jobs`, which a job not reached for it names. */
  readonly maxFailedJobs: number;
}

/** Every line of a fleet run: its own events', and its jobs' through the one-job formatter. */
export interface FleetFormatter {
  /** The lines a fleet event or a job's event prints, in order. */
  render(event: FleetProgressEvent): OutputLine[];
  /** A job's question, as the one-job formatter writes it, prefixed like the job's lines. */
  renderJobQuestion(name: FleetJobName, question: Question, time: number): string;
  /** The one-job formatter underneath (errors, usage, timestamps). */
  readonly job: Formatter;
  /** The zone of its timestamps. @default - the process's local zone */
  readonly timeZone?: string;
}

/** `[<namespace>/<job>] `: the prefix of a job's lines when several jobs run at once. */
export const jobPrefix = (name: FleetJobName) => `[${name.namespace}/${name.job}] `;

/** `text` with `prefix` before each of its lines (an empty line gets the prefix without its space). */
function prefixLines(prefix: string, text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? prefix.trimEnd() : `${prefix}${line}`))
    .join('\n');
}

const FLEET_EVENT_TYPES: ReadonlySet<string> = new Set<FleetEvent['type']>([
  'fleet-planned',
  'job-started',
  'job-finished',
  'fleet-finished',
]);

/** A job's one-job event (its type is none of the fleet's own). */
const isJobEvent = (event: FleetProgressEvent): event is JobProgressEvent =>
  !FLEET_EVENT_TYPES.has(event.type);

const jobKey = (name: FleetJobName) => `${name.namespace}/${name.job}`;

/** Creates the formatter of one fleet run. */
export function createFleetFormatter(options: FleetFormatterOptions): FleetFormatter {
  const job = createFormatter(options);
  const prefixed = options.maxJobs > 1;
  const forJob = (name: FleetJobName, lines: OutputLine[]): OutputLine[] =>
    prefixed ? lines.map((line) => ({ ...line, text: prefixLines(jobPrefix(name), line.text) })) : lines;
  const stdout = (text: string): OutputLine => ({ stream: 'stdout', text });
  /** Jobs whose own lines already said they were skipped for a lock. */
  const saidLocked = new Set<string>();

  const renderFleet = (event: FleetEvent): OutputLine[] => {
    switch (event.type) {
      case 'fleet-planned':
        // Counts as Nomad writes its own: `1 allocations`, `1 jobs`.
        return [
          ...consumerLines(event, job, event.time, options.timeZone),
          job.renderHeader(`Restarting ${event.allocations} allocations of ${event.jobs} jobs`, event.time),
        ];
      case 'job-started':
        return forJob(event, [
          job.renderHeader(
            `Restarting job ${goQuote(event.job)} in namespace ${goQuote(event.namespace)} (${event.index} of ${event.of})`,
            event.time,
          ),
        ]);
      case 'job-finished':
        // A job's own lines said how it ended, except a job held by another run outside a
        // schedule: its execution failed on the lock before any line of its own. (A scheduled
        // one said it: `Skipping scheduled restart: ...`.)
        if (event.outcome !== 'locked' || saidLocked.has(jobKey(event))) return [];
        return forJob(event, [
          job.renderError(
            `Skipping job ${goQuote(event.job)} in namespace ${goQuote(event.namespace)}: ${problemText(
              { kind: 'locked', holder: event.reason ?? 'another run' },
              options,
            )}`,
          ),
        ]);
      case 'fleet-finished': {
        const lines = [stdout(fleetHeadline(event))];
        for (const p of event.problems ?? [])
          lines.push(stdout(problemLine({ ...p, reason: problemText(p.problem, options) })));
        const omitted = event.omittedProblems ?? 0;
        if (omitted > 0) lines.push(stdout(omittedLine(omitted, event.report)));
        return lines;
      }
    }
  };

  const renderJob = (event: JobProgressEvent): OutputLine[] => {
    if (event.type === 'skipped-job-locked') saidLocked.add(jobKey(event));
    return forJob(event, job.render(event));
  };

  return {
    job,
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    render: (event) => (isJobEvent(event) ? renderJob(event) : renderFleet(event as FleetEvent)),
    renderJobQuestion: (name, question, time) => {
      const text = job.renderQuestion(question, time);
      return prefixed ? prefixLines(jobPrefix(name), text) : text;
    },
  };
}
