/**
 * The `filter` of `GET /v1/allocations`: Nomad evaluates any go-bexpr expression on each
 * allocation; the simulator knows only the one form nomad-restart sends, `JobID == "<id>"`, and
 * refuses every other with the 400 Nomad answers for a filter it cannot read, so a caller that
 * starts sending another filter finds out here instead of getting a wrong answer.
 */
import { SimHttpError } from '../../errors';

/** `JobID == "<id>"`, the ID without quotes or backslashes (bexpr's string syntax). */
const JOB_ID_FILTER = /^\s*JobID\s*==\s*"([^"\\]*)"\s*$/;

/** The job ID the filter selects; `undefined` without a filter. @throws SimHttpError 400 for any other filter. */
export function jobIdOfFilter(filter: string | null): string | undefined {
  if (filter === null || filter === '') return undefined;
  const jobId = JOB_ID_FILTER.exec(filter)?.[1];
  if (jobId === undefined) {
    throw new SimHttpError(
      400,
      `failed to create result paginator: failed to read filter expression: the simulator reads only JobID == "<id>", not ${filter}`,
    );
  }
  return jobId;
}
