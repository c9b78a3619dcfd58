/**
 * The three questions of `nomad job restart` (Nomad's `command/job_restart.go`
 * `shouldRestartMultiregion`, `shouldProceed`, `shouldExit`) as data: their text, their options
 * and how an answer is read, and ours beyond Nomad: the pause question of run control
 * (docs/run-control.md). The terminal, chat and the console all use these.
 */

import { type ControlRequest, describeRequester } from '../control/requests';
import { parseGoDuration } from '../go/duration';
import { goQuote } from '../go/quote';
import type { BatchOutcome } from './decide';
import { formatTimestamp } from './text';

export type QuestionKind = 'multi-region' | 'proceed' | 'interrupt' | 'pause';

/** How an answer reads. `wait` (only when the batch wait is `ask`) also means yes. */
export type Answer =
  | { kind: 'yes' }
  | { kind: 'no' }
  | { kind: 'wait'; ns: number }
  /** Not understood: print `Invalid answer "<text>"` and ask again. `text` is the trimmed answer. */
  | { kind: 'invalid'; text: string };

export interface Question {
  kind: QuestionKind;
  /** Question text, one entry per printed line (without the options). */
  lines: string[];
  /** The option string shown in brackets after the last line, e.g. `Y/n/<wait duration>`. */
  options: string;
  /** Applies when the read is interrupted or fails (EOF), without asking again. */
  defaultOnInterrupt: { kind: 'yes' } | { kind: 'no' };
  /** The batch went well (proceed question): an empty answer then means yes. */
  noErrors: boolean;
  /** The batch wait is `ask` (proceed question): a Go duration is a valid answer. */
  batchWaitAsk: boolean;
}

const YES = { kind: 'yes' } as const;
const NO = { kind: 'no' } as const;

/** `Are you sure you want to restart multi-region job "<job>" in a single region? [y/N]` */
export function multiRegionQuestion(jobId: string): Question {
  return {
    kind: 'multi-region',
    lines: [`Are you sure you want to restart multi-region job ${goQuote(jobId)} in a single region?`],
    options: 'y/N',
    defaultOnInterrupt: NO,
    noErrors: true,
    batchWaitAsk: false,
  };
}

/** The question after a non-final batch; its wording depends on how the batch went. */
export function proceedQuestion(props: { outcome: BatchOutcome; batchWaitAsk: boolean }): Question {
  const lines =
    props.outcome === 'ok'
      ? ['Proceed with the next batch?']
      : props.outcome === 'recoverable'
        ? ['Ignore the errors above and proceed with the next batch?']
        : [
            'The errors above are likely to happen again.',
            'Ignore them anyway and proceed with the next batch?',
          ];
  // With errors the safe default is no, hence the capital N.
  const options = (props.outcome === 'ok' ? 'Y/n' : 'y/N') + (props.batchWaitAsk ? '/<wait duration>' : '');
  return {
    kind: 'proceed',
    lines,
    options,
    defaultOnInterrupt: NO,
    noErrors: props.outcome === 'ok',
    batchWaitAsk: props.batchWaitAsk,
  };
}

/** Asked on SIGINT; an interrupted or failed read means yes, stop. */
export function interruptQuestion(): Question {
  return {
    kind: 'interrupt',
    lines: [
      'Restart interrupted, no more allocations will be restarted.',
      'Are you sure you want to stop the restart process?',
    ],
    options: 'y/N',
    defaultOnInterrupt: YES,
    noErrors: true,
    batchWaitAsk: false,
  };
}

/**
 * Beyond Nomad: asked at the safe point a pause request reached (`Paused by <who> at <time>.`,
 * `Resume the restart? [y/N]`). Like every question with a capital N, nothing typed, a read that
 * fails and a question nobody answers in time all mean no: the run ends `canceled`.
 */
export function pauseQuestion(request: ControlRequest): Question {
  return {
    kind: 'pause',
    lines: [
      `Paused by ${describeRequester(request)} at ${formatTimestamp(request.at)}.`,
      'Resume the restart?',
    ],
    options: 'y/N',
    defaultOnInterrupt: NO,
    noErrors: false,
    batchWaitAsk: false,
  };
}

/** Go's `strings.TrimSpace` whitespace (ASCII and Unicode White_Space). */
const trimGo = (s: string) => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');

/**
 * Reads an answer like Nomad: trimmed, case-insensitive `y`/`yes`/`n`/`no`; an empty
 * answer is "no" except for a proceed question after a batch without errors; a proceed
 * question with the wait at `ask` also takes a Go duration, parsed from the trimmed
 * answer in its original case (`10s`, not `10S`).
 */
export function interpretAnswer(question: Question, raw: string): Answer {
  const text = trimGo(raw);
  const lower = text.toLowerCase();
  if (lower === 'y' || lower === 'yes') return YES;
  if (lower === 'n' || lower === 'no') return NO;
  if (lower === '') return question.kind === 'proceed' && question.noErrors ? YES : NO;
  if (question.kind === 'proceed' && question.batchWaitAsk) {
    try {
      return { kind: 'wait', ns: parseGoDuration(text) };
    } catch {
      // Not a duration either: fall through to "invalid".
    }
  }
  return { kind: 'invalid', text };
}
