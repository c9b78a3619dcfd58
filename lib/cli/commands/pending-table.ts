/**
 * The table `nomad-restart questions` prints: one row per pending question, laid out like Nomad's
 * own lists (`columnize`), the question on one line as chat shows it, its age as a Go duration.
 */
import { formatGoDuration } from '../../go/duration';
import { columnize } from '../../restart/prefix-matches';
import type { PendingApproval } from '../../stores/approval-store';

/** What `questions` prints when nothing waits. */
export const NO_PENDING_QUESTIONS = 'No questions pending';

const HEADER = 'ID|Job|Namespace|Question|Age|Execution';

/** The question without the terminal's line break and 31-space indent. */
const oneLine = (prompt: string) => prompt.replace(/\s*\n\s*/g, ' ');

/** The rows of `pending`, oldest first, aged at `nowMs`; {@link NO_PENDING_QUESTIONS} when there are none. */
export function formatPendingQuestions(pending: readonly PendingApproval[], nowMs: number): string {
  if (pending.length === 0) return NO_PENDING_QUESTIONS;
  const rows = pending.map((p) => {
    const ageSeconds = Math.max(0, Math.floor(nowMs / 1000) - p.createdAt);
    return [
      p.approvalId,
      p.jobId,
      p.namespace,
      oneLine(p.prompt),
      formatGoDuration(ageSeconds * 1e9),
      p.executionId,
    ].join('|');
  });
  return columnize([HEADER, ...rows]);
}
