/**
 * Questions nobody answered in time: the workflow applied Nomad's default (`no`); recording it
 * as the question's decision is what tells chat. Apart from decide.ts so that "Apply answer"
 * loads no Step Functions client (it runs in the command's own process locally).
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalStore } from '../stores/approval-store';

/**
 * Records that a question of `executionId` timed out: the workflow applied Nomad's default
 * (`no`), and chat shows so. Questions already decided keep their decision.
 */
export async function recordTimeouts(
  approvals: ApprovalStore,
  executionId: string,
  now: () => number = Date.now,
): Promise<number> {
  let recorded = 0;
  for (const pending of await approvals.listPending({ executionId })) {
    const result = await approvals.decide(pending.approvalId, {
      decisionId: randomUUID(),
      answer: 'no',
      answeredBy: 'nobody (timed out)',
      via: 'timeout',
      decidedAt: Math.floor(now() / 1000),
      outcome: 'delivered',
    });
    if (result.won) recorded += 1;
  }
  return recorded;
}
