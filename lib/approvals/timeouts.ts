/**
 * Questions closed without an answer: nobody answered in time (the workflow applied Nomad's
 * default, `no`), or the run ended while they were open (aborted, failed, timed out). Recording
 * either as the question's decision is what tells chat: its message is updated to say so and loses
 * its buttons, a later answer is told the question is closed, and `questions` lists it no more.
 * Apart from decide.ts so that "Apply answer" loads no Step Functions client (it runs in the
 * command's own process locally).
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalStore } from '../stores/approval-store';

/** Gives each open question of `executionId` `decision`; returns how many it closed. */
async function closeOpenQuestions(
  approvals: ApprovalStore,
  executionId: string,
  decision: Omit<ApprovalDecision, 'decisionId'>,
): Promise<number> {
  let closed = 0;
  for (const pending of await approvals.listPending({ executionId })) {
    const result = await approvals.decide(pending.approvalId, { ...decision, decisionId: randomUUID() });
    if (result.won) closed += 1;
  }
  return closed;
}

/**
 * Records that a question of `executionId` timed out: the workflow applied Nomad's default
 * (`no`), and chat shows so. Questions already decided keep their decision.
 */
export function recordTimeouts(
  approvals: ApprovalStore,
  executionId: string,
  now: () => number = Date.now,
): Promise<number> {
  return closeOpenQuestions(approvals, executionId, {
    answer: 'no',
    answeredBy: 'nobody (timed out)',
    via: 'timeout',
    decidedAt: Math.floor(now() / 1000),
    outcome: 'delivered',
  });
}

/**
 * Closes the questions `executionId` left open when it ended (the stale-lock rule's clean-up):
 * nothing was answered, and chat shows that the run ended. Questions already decided keep their
 * decision; the items expire with their TTL.
 */
export function recordRunEnded(
  approvals: ApprovalStore,
  executionId: string,
  now: () => number = Date.now,
): Promise<number> {
  return closeOpenQuestions(approvals, executionId, {
    answer: '',
    answeredBy: 'nobody (the run ended)',
    via: 'run-ended',
    decidedAt: Math.floor(now() / 1000),
    outcome: 'run-finished',
  });
}
