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

/** What a question closed without an answer records as its decision, by why it closed. */
const CLOSINGS = {
  timeout: { answer: 'no', answeredBy: 'nobody (timed out)', via: 'timeout', outcome: 'delivered' },
  'run-ended': {
    answer: '',
    answeredBy: 'nobody (the run ended)',
    via: 'run-ended',
    outcome: 'run-finished',
  },
} as const satisfies Record<string, Omit<ApprovalDecision, 'decisionId' | 'decidedAt'>>;

/** Why questions were closed without an answer. */
export type UnansweredClosing = keyof typeof CLOSINGS;

/**
 * Closes the questions `executionId` left open and returns how many it closed; questions already
 * decided keep their decision. `timeout`: nobody answered in time, the workflow applied Nomad's
 * default (`no`), and chat shows so. `run-ended`: the run ended with them open (the stale-lock
 * rule's clean-up); chat shows that the run ended, and the items expire with their TTL.
 */
export async function closeOpenQuestions(
  approvals: ApprovalStore,
  executionId: string,
  why: UnansweredClosing,
  now: () => number = Date.now,
): Promise<number> {
  const decision = { ...CLOSINGS[why], decidedAt: Math.floor(now() / 1000) };
  let closed = 0;
  // The execution's own questions (a query by execution), not a listing of every pending one.
  const open = (await approvals.listByExecution(executionId)).filter((a) => a.decision === undefined);
  for (const pending of open) {
    const result = await approvals.decide(pending.approvalId, { ...decision, decisionId: randomUUID() });
    if (result.won) closed += 1;
  }
  return closed;
}
