/**
 * `-reason "<text>"` (input `reason`, issue #40): why a run was started (a ticket, a sentence),
 * kept in the job's run history (lib/history). It is refused before anything is touched when it
 * would not read as one line in `nomad-restart history`'s table, or would cost other runs their
 * records in the history's variable (Nomad caps a variable's size: docs/history.md).
 */
import { goQuote } from '../../go/quote';
import { RestartValidationError } from '../errors';

/**
 * The longest `-reason` accepted, in characters: a ticket reference and a sentence, not a
 * document. Records are trimmed to fit Nomad's variable size (lib/history/record.ts
 * `MAX_VARIABLE_SIZE`), so a long reason would cost other runs' records.
 */
export const MAX_REASON_LENGTH = 200;

/** What `-reason` accepts, in words (the input's JSON Schema and its messages). */
export const REASON_ALLOWED = `why the run was started, kept in the job's restart history: one line of at most ${MAX_REASON_LENGTH} characters (string)`;

/**
 * Control characters (a newline, a tab, an escape sequence that would redraw a reader's terminal)
 * and Unicode's line and paragraph separators: each would break the one line a reason is.
 */
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * `text` as the run's reason.
 * @throws RestartValidationError (field `reason`) naming the flag and quoting the value, for an
 *   empty reason, one longer than {@link MAX_REASON_LENGTH} characters, or one that is not one line
 */
export function validateReason(text: string): string {
  const refuse = (why: string) =>
    new RestartValidationError(`Invalid -reason value ${goQuote(text)}: ${why}`, { field: 'reason' });
  if (text.trim() === '') throw refuse('must not be empty');
  // Characters as a reader counts them (code points), not UTF-16 units.
  const length = [...text].length;
  if (length > MAX_REASON_LENGTH)
    throw refuse(`must be at most ${MAX_REASON_LENGTH} characters, got ${length}`);
  const bad = NOT_ONE_LINE.exec(text)?.[0];
  if (bad !== undefined) throw refuse(`must be one line, without control characters (found ${goQuote(bad)})`);
  return text;
}
