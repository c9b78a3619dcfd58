/**
 * A version 4 UUID (RFC 9562, section 5.4) drawn from `Math.random`, for the names a local run
 * gives before its first request: its execution's name and each invocation's Lambda request id.
 * They need to be unique, never unguessable (they guard nothing), and `node:crypto`'s
 * `randomUUID` would cost about 7 ms of CPU on every run, a job that is not found included
 * (docs/benchmarks.md, "The last milliseconds of a job not found"). V8 seeds each process's
 * `Math.random` from the system's entropy, so two runs' 122 random bits do not meet.
 */

const HEX = '0123456789abcdef';

/** One random hex digit, from `from` (0 or 8) to `from + span - 1`. */
const hexDigit = (from = 0, span = 16) => HEX.charAt(from + Math.floor(Math.random() * span));

/** A new `xxxxxxxx-xxxx-4xxx-Yxxx-xxxxxxxxxxxx` UUID, `Y` one of 8, 9, a, b (the RFC variant). */
export function localUuid(): string {
  let uuid = '';
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) uuid += '-';
    else if (i === 14) uuid += '4';
    else if (i === 19) uuid += hexDigit(8, 4);
    else uuid += hexDigit();
  }
  return uuid;
}
