/**
 * Answering a question a local run parked, as an answer channel would: wait until the run waits on
 * its task token, then take the one decision (lib/approvals/decide.ts), which completes the token
 * through the local engine's callbacks in place of Step Functions.
 */
import type { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { type AnswerRequest, type DecideOutcome, decideQuestion } from '../../../../lib/approvals/decide';
import type { LocalTaskTokenCallbacks } from '../../../../lib/engines/local/task-token-callbacks';
import { approvalStoreFromEnv } from '../../../../lib/stores/from-env';

/** Resolves once the run waits on a task token; throws if it never does. */
export async function untilWaiting(callbacks: LocalTaskTokenCallbacks): Promise<void> {
  for (let i = 0; callbacks.pending === 0; i++) {
    if (i > 100_000) throw new Error('the run never waited on its question');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Takes the decision `request` once the run waits on its question (the approvals table from the environment). */
export async function decideWhenWaiting(
  callbacks: LocalTaskTokenCallbacks,
  request: AnswerRequest,
): Promise<DecideOutcome> {
  await untilWaiting(callbacks);
  const sfn = {
    send: async (command: SendTaskSuccessCommand) =>
      callbacks.sendTaskSuccess(String(command.input.taskToken), String(command.input.output)),
  };
  return decideQuestion({ approvals: approvalStoreFromEnv(), sfn }, request);
}
