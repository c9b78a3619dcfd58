/**
 * The bounds of a record's errors ({@link MAX_RECORD_ERRORS}, {@link MAX_RECORD_ERROR_LENGTH}),
 * applied in one place for every writer: a run's final record (lib/history's builders) and an
 * unfinished record ended by the store (lib/stores/nomad-run-history.ts). Bounded because every
 * byte of a record is a byte less for older runs in Nomad's 64 KiB variable.
 */
import { MAX_RECORD_ERROR_LENGTH, MAX_RECORD_ERRORS, type RunRecord } from './record';

/**
 * The first {@link MAX_RECORD_ERRORS} of `errors`, each cut to {@link MAX_RECORD_ERROR_LENGTH}
 * characters (the last one a `…`), and how many were left out, `alreadyOmitted` included.
 */
export function boundRecordErrors(
  errors: readonly string[],
  alreadyOmitted = 0,
): Pick<RunRecord, 'errors' | 'omittedErrors'> {
  const kept = errors.slice(0, MAX_RECORD_ERRORS).map((error) => {
    const chars = [...error];
    // By code points, so a cut never splits a surrogate pair into an unencodable half.
    return chars.length <= MAX_RECORD_ERROR_LENGTH
      ? error
      : `${chars.slice(0, MAX_RECORD_ERROR_LENGTH - 1).join('')}…`;
  });
  return { errors: kept, omittedErrors: alreadyOmitted + errors.length - kept.length };
}
