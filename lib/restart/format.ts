/**
 * The one formatter: every line `nomad-restart` prints comes from here, built from
 * progress events (`events.ts`) and questions (`questions.ts`) exactly as `nomad job
 * restart` prints them (Nomad's `command/job_restart.go` `Run`), with our fix (README, "Differences
 * from nomad job restart") to the verbose status-skip line.
 */
import { describeRequester } from '../control/requests';
import { formatGoDuration } from '../go/duration';
import { goQuote } from '../go/quote';
import type { ProgressEvent, RestartMode, SkipReason } from './events';
import { allFreshText, freshnessCountsText, staleTexts } from './freshness/lines';
import { healthLine } from './health/format-health';
import { displayId } from './ids';
import { lockEventText } from './lock-lines';
import { formatPrefixMatches } from './prefix-matches';

export { formatPrefixMatches };

import type { Question } from './questions';
import {
  DETAIL_INDENT,
  formatErrorList,
  formatTimestamp,
  indentString,
  ordinal,
  plural,
  questionEndText,
  TIMESTAMP_PREFIX_LENGTH,
} from './text';

/**
 * One write to a stream, as one call to Nomad's UI. `text` gets a trailing newline when
 * written and may itself contain line breaks (a multi-line error list is one write, so
 * that its colour, when on, wraps it whole).
 */
export interface OutputLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface FormatterOptions {
  /** Full 36-character IDs and the verbose-only lines. */
  verbose: boolean;
  /** ANSI colours (bold headers, dark grey verbose lines, red errors, yellow warnings). */
  color: boolean;
  /**
   * Red errors and yellow warnings. Nomad's UI library colours those lines only when stdout is
   * a terminal (its colour package checks the terminal itself), so `-force-color` into a pipe
   * colours the headers but not the errors. @default color
   */
  uiColor?: boolean;
  /** IANA zone for timestamps; default: the process's local zone. */
  timeZone?: string;
}

/** The additional-help line printed after a usage error. */
export const ADDITIONAL_HELP_LINE = "For additional help try 'nomad-restart -help'";

/**
 * colorstring with Nomad's `Reset: true`: the text ends with the explicit `[reset]` of the
 * format string and then the automatic one, so coloured lines end with two resets.
 */
const paint = (code: string, text: string) => `\u001b[${code}m${text}\u001b[0m\u001b[0m`;
/** cli.ColoredUi wraps whole error and warning writes as `ESC[0;<code>m...ESC[0m`. */
const uiColor = (code: number, text: string) => `\u001b[0;${code}m${text}\u001b[0m`;

export interface Formatter {
  /** The lines an event prints, in order; empty when it prints nothing (e.g. non-verbose detail). */
  render(event: ProgressEvent): OutputLine[];
  /**
   * A question as written to stdout before reading the answer: `==> <ts>: <question> [<options>]`,
   * continuation lines indented by 31, followed by ONE trailing space (as Go's `cli.BasicUi`
   * writes it) and no newline.
   */
  renderQuestion(question: Question, time: number): string;
  /** A skipped allocation's line whatever the verbosity (`-dry-run` always explains its plan). */
  renderSkipped(event: Extract<ProgressEvent, { type: 'allocation-skipped' }>): OutputLine;
  /** A question already worded by the workflow (`PendingQuestion.prompt`, options included). */
  renderPrompt(prompt: string, time: number): string;
  /** A header line of this command's own (`==> <ts>: <text>` on stdout, bold when coloured, as Nomad's). */
  renderHeader(text: string, time: number): OutputLine;
  /** `<31 spaces>Invalid answer "<text>"` (stdout), printed before asking again. */
  renderInvalidAnswer(text: string): OutputLine;
  /** A failed read (e.g. `EOF`), printed as is on stdout; the question's default then applies. */
  renderReadError(text: string): OutputLine;
  /** The empty line printed when a question's read is interrupted by SIGINT. */
  renderReadInterrupted(): OutputLine;
  /** `\nCanceling job restart process` after the interrupt question is confirmed. */
  renderInterruptConfirmed(): OutputLine;
  /** `\nJob restart canceled.` after the multi-region question is declined. */
  renderMultiRegionCanceled(): OutputLine;
  /** An error message on stderr (a validation or lookup error), red when coloured. */
  renderError(message: string): OutputLine;
  /** A usage error: the message, then the additional-help line, both on stderr. */
  renderUsageError(message: string): OutputLine[];
  /** The multiple-match job table (Nomad's `Meta.JobByPrefix`), with timestamps in this formatter's zone. */
  formatPrefixMatches(
    jobs: Parameters<typeof formatPrefixMatches>[0],
    opts: { allNamespaces: boolean; truncated: boolean },
  ): string;
  /** The `<ts>` of a line. */
  timestamp(time: number): string;
}

/** Nomad's line after a "no" to the multi-region question (no prefix, a blank line first). */
const MULTIREGION_CANCELED = '\nJob restart canceled.';

/** Creates the formatter for one run. */
export function createFormatter(options: FormatterOptions): Formatter {
  const { verbose, color, timeZone } = options;
  const uiColors = options.uiColor ?? color;
  const id = (value: string) => displayId(value, { verbose });
  const ts = (time: number) => formatTimestamp(time, timeZone);
  const bold = (text: string) => (color ? paint('1', text) : text);
  const darkGray = (text: string) => (color ? paint('90', text) : text);
  const header = (time: number, text: string) => bold(`==> ${ts(time)}: ${text}`);
  const detail = (time: number, text: string) => `${DETAIL_INDENT}${ts(time)}: ${text}`;
  const stdout = (text: string): OutputLine => ({ stream: 'stdout', text });
  const stderr = (text: string): OutputLine => ({
    stream: 'stderr',
    text: uiColors ? uiColor(31, text) : text,
  });
  const warn = (text: string): OutputLine => ({
    stream: 'stderr',
    text: uiColors ? uiColor(33, text) : text,
  });

  const skipText = (allocationId: string, reason: SkipReason): string => {
    const alloc = goQuote(id(allocationId));
    switch (reason.kind) {
      case 'status':
        // Upstream swaps these two values; we print each in its own slot (README, "Differences").
        return `Skipping allocation ${alloc} because desired status is ${goQuote(reason.desiredStatus)} and client status is ${goQuote(reason.clientStatus)}`;
      case 'replaced':
        return `Skipping allocation ${alloc} because it has already been replaced by ${goQuote(id(reason.nextAllocationId))}`;
      case 'group':
        return `Skipping allocation ${alloc} because it doesn't have any of requested groups`;
      case 'task':
        return `Skipping allocation ${alloc} because it doesn't have any of requested tasks`;
      case 'done':
        return `Skipping allocation ${alloc} because an earlier run of this restart already restarted it`;
      case 'started-after':
        return `Skipping allocation ${alloc} because it started after ${ts(reason.startedBefore)}`;
    }
  };

  const restartingText = (allocationId: string, group: string, mode: RestartMode): string => {
    const where = `allocation ${goQuote(id(allocationId))} for group ${goQuote(group)}`;
    switch (mode.kind) {
      case 'running-tasks':
        return `Restarting running tasks in ${where}`;
      case 'all-tasks':
        return `Restarting all tasks in ${where}`;
      case 'task':
        return `Restarting task ${goQuote(mode.task)} in ${where}`;
      case 'reschedule':
        return `Rescheduling ${where}`;
    }
  };

  const waitText = (e: { waitMs: number; waitNs?: number }) => formatGoDuration(e.waitNs ?? e.waitMs * 1e6);

  const render = (event: ProgressEvent): OutputLine[] => {
    const t = event.time;
    switch (event.type) {
      case 'restart-started':
        return [stdout(header(t, `Restarting ${plural(event.count, 'allocation', 'allocations')}`))];
      case 'nothing-to-restart':
        return [stdout('No allocations to restart')];
      case 'all-started-after':
        return [stdout(`All ${event.count} allocations started after ${ts(event.startedBefore)}`)];
      case 'freshness': {
        const { report } = event;
        const last = allFreshText(report, ts(report.startedBefore));
        return [
          stdout(header(t, freshnessCountsText(report))),
          ...staleTexts(report, id).map((text) => stdout(detail(t, text))),
          ...(last === undefined ? [] : [stdout(last)]),
        ];
      }
      case 'lock-taken-over':
      case 'earlier-run-resumed':
      case 'shared-lock-skipped':
      case 'lock-lost':
        return [warn(header(t, lockEventText(event)))];
      case 'history-not-recorded':
        return [warn(header(t, event.message))];
      case 'allocation-skipped':
        return verbose ? [stdout(darkGray(detail(t, skipText(event.allocationId, event.reason))))] : [];
      case 'batch-started':
        // "allocations" stays plural even for 1, as upstream prints it.
        return [
          stdout(header(t, `Restarting ${ordinal(event.batchNumber)} batch of ${event.size} allocations`)),
        ];
      case 'allocation-restarting':
        return [stdout(detail(t, restartingText(event.allocationId, event.group, event.mode)))];
      case 'evaluation-triggered':
        // Nomad prints nothing here; the event is for JSON output and the console.
        return [];
      case 'allocation-replaced': {
        const next = goQuote(id(event.replacementId));
        return [
          stdout(
            detail(
              t,
              `Allocation ${goQuote(id(event.allocationId))} replaced by ${next}, waiting for ${next} to start running`,
            ),
          ),
        ];
      }
      case 'allocation-status': {
        if (event.verbose && !verbose) return [];
        const line = detail(t, `Allocation ${goQuote(id(event.allocationId))} is ${goQuote(event.status)}`);
        return [stdout(event.verbose ? darkGray(line) : line)];
      }
      case 'still-waiting':
        return [
          stdout(detail(t, `Still waiting for allocation ${goQuote(id(event.allocationId))} to be replaced`)),
        ];
      case 'health-waiting':
      case 'allocation-healthy':
      case 'health-no-checks':
      case 'health-reset':
      case 'health-still-waiting': {
        const line = healthLine(event, id);
        if (line.verbose && !verbose) return [];
        const text = line.header ? header(t, line.text) : detail(t, line.text);
        return [stdout(line.verbose ? darkGray(text) : text)];
      }
      case 'batch-errors':
        return [warn(header(t, formatErrorList(event.errors, TIMESTAMP_PREFIX_LENGTH, event.omittedErrors)))];
      case 'stopping':
        return [
          stdout(
            header(
              t,
              event.reason === 'error'
                ? 'Stopping job restart due to error'
                : 'Stopping job restart due to unrecoverable error',
            ),
          ),
        ];
      case 'max-errors-exceeded':
        return [
          stdout(
            header(
              t,
              `Stopping job restart: ${plural(event.failed, 'allocation', 'allocations')} failed, more than -max-errors=${event.maxErrors}`,
            ),
          ),
        ];
      case 'new-batch-wait':
        return [stdout(header(t, `Proceeding restarts with new wait time of ${waitText(event)}`))];
      case 'waiting':
        return [stdout(header(t, `Waiting ${waitText(event)} before restarting the next batch`))];
      case 'window-ended':
        return [
          stdout(
            header(
              t,
              `Stopping job restart: the maintenance window ended at ${ts(event.windowEnd)}; ${event.done} of ${plural(event.done + event.left, 'allocation', 'allocations')} done, ${event.left} left`,
            ),
          ),
        ];
      case 'skipped-job-locked':
        return [
          warn(
            header(
              t,
              `Skipping scheduled restart: job ${goQuote(event.jobId)} is already being restarted by execution "${event.holder}"`,
            ),
          ),
        ];
      case 'question-answered':
      case 'question-timed-out':
        return [stdout(header(t, questionEndText(event)))];
      case 'canceled':
        return [stdout(header(t, 'Job restart canceled'))];
      case 'multiregion-declined':
        return [stdout(MULTIREGION_CANCELED)];
      case 'paused':
      case 'resumed':
      case 'stopped':
      case 'alarm-fired':
      case 'baking':
        return [stdout(header(t, controlEventText(event, ts)))];
      case 'run-started':
      case 'batch-finished':
      case 'question-waited':
      case 'run-ended':
        // Run-level events (issue #40) are data for JSON output and metrics: Nomad prints no line.
        return [];
      case 'finished': {
        if (event.errors.length > 0) {
          const lines = event.canceled ? [] : [stdout(header(t, 'Job restart finished with errors'))];
          return [...lines, stderr(`\n${formatErrorList(event.errors, 0, event.omittedErrors)}`)];
        }
        if (event.canceled) return [];
        return [stdout(header(t, 'Job restart finished')), stdout('\nJob restarted successfully!')];
      }
    }
  };

  return {
    render,
    renderQuestion: (question, time) => {
      const text = indentString(
        `${question.lines.join('\n')} [${question.options}]`,
        TIMESTAMP_PREFIX_LENGTH,
      );
      return `${header(time, text)} `;
    },
    renderSkipped: (event) =>
      stdout(darkGray(detail(event.time, skipText(event.allocationId, event.reason)))),
    renderPrompt: (prompt, time) => `${header(time, prompt)} `,
    renderHeader: (text, time) => stdout(header(time, text)),
    renderInvalidAnswer: (text) =>
      stdout(`${' '.repeat(TIMESTAMP_PREFIX_LENGTH)}Invalid answer ${goQuote(text)}`),
    renderReadError: (text) => stdout(text),
    renderReadInterrupted: () => stdout(''),
    renderInterruptConfirmed: () => stdout('\nCanceling job restart process'),
    renderMultiRegionCanceled: () => stdout(MULTIREGION_CANCELED),
    renderError: (message) => stderr(message),
    renderUsageError: (message) => [stderr(message), stderr(ADDITIONAL_HELP_LINE)],
    formatPrefixMatches: (jobs, opts) =>
      formatPrefixMatches(jobs, { ...opts, ...(timeZone ? { timeZone } : {}) }),
    timestamp: ts,
  };
}

/** The line of a run-control, alarm or bake event (beyond Nomad). */
function controlEventText(
  event: Extract<ProgressEvent, { type: 'paused' | 'resumed' | 'stopped' | 'alarm-fired' | 'baking' }>,
  ts: (time: number) => string,
): string {
  switch (event.type) {
    case 'paused':
      return `Restart paused by ${describeRequester(event.request)}: no batch starts until it is resumed`;
    case 'resumed':
      return `Restart resumed by ${event.resumedBy}`;
    case 'stopped':
      return `Restart stopped by ${describeRequester(event.request)}: no more allocations will be restarted`;
    case 'alarm-fired':
      return `Alarm ${goQuote(event.alarm.name)} is in ALARM: ${event.alarm.reason}; no more allocations will be restarted`;
    case 'baking':
      return `Watching ${event.alarms.map(goQuote).join(', ')} until ${ts(event.until)} before declaring success`;
  }
}
