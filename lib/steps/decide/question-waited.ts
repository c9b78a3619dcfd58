/**
 * The `question-waited` run-level event (issue #40): how long the run waited on a question, once
 * "Apply answer" applies its answer or its timeout.
 */
import type { RunLevelEvent } from '../../restart/run/run-events';
import type { ApprovalAnswer, PendingQuestion, TaskFailure } from '../../workflow/payloads';

type QuestionWaited = Extract<RunLevelEvent, { type: 'question-waited' }>;

/**
 * The event for `question`, answered `reply` (a `<duration>` answer goes on, so it is a yes);
 * `undefined` for a question parked by an older state, which does not say when it was asked.
 */
export function questionWaited(
  question: PendingQuestion | null,
  answer: ApprovalAnswer | TaskFailure,
  reply: 'yes' | 'no',
  now: number,
): QuestionWaited | undefined {
  if (question?.askedAt === undefined) return undefined;
  return {
    type: 'question-waited',
    time: now,
    kind: question.kind,
    waitedMs: Math.max(0, now - question.askedAt),
    // No answer is the Catch's `States.Timeout` failure: the question's default applied.
    answer: 'answer' in answer ? reply : 'timeout',
  };
}
