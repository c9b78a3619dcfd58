/**
 * A question the workflow has already worded (`<text> [<options>]`, as a pending question or an
 * approval item carries it) turned back into the `Question` it came from, and an `Answer` into
 * the reply text the workflow reads back into the same answer. The terminal, chat and the
 * webhook all read answers to a parked question through these, so each accepts exactly what
 * Nomad would (`command/job_restart.go` `askQuestion`).
 */
import { formatGoDuration } from '../go/duration';
import type { Answer, Question } from './questions';
import { TIMESTAMP_PREFIX_LENGTH } from './text';

/**
 * The question for a prompt the workflow worded: `<line>\n<31 spaces><line> [<options>]`.
 * An empty reply means yes only where the options put `Y` first (a batch without errors), and a
 * duration is accepted where the options offer `<wait duration>`, as `proceedQuestion` words them.
 * `kind` is the workflow's (`multiregion`, `proceed` or `pause`).
 */
export function toQuestion(pending: { readonly kind: string; readonly prompt: string }): Question {
  const match = /^([\s\S]*) \[([^\]]*)\]$/.exec(pending.prompt);
  const text = match?.[1] ?? pending.prompt;
  const options = match?.[2] ?? '';
  return {
    kind: pending.kind === 'multiregion' ? 'multi-region' : pending.kind === 'pause' ? 'pause' : 'proceed',
    lines: text.split(`\n${' '.repeat(TIMESTAMP_PREFIX_LENGTH)}`),
    options,
    defaultOnInterrupt: { kind: 'no' },
    noErrors: pending.kind === 'multiregion' || options.startsWith('Y/'),
    batchWaitAsk: options.includes('<wait duration>'),
  };
}

/** The reply text "Apply answer" reads back into the same answer. */
export function answerText(answer: Answer): string {
  switch (answer.kind) {
    case 'yes':
      return 'yes';
    case 'no':
      return 'no';
    case 'wait':
      return formatGoDuration(answer.ns);
    case 'invalid':
      return answer.text;
  }
}
