/**
 * Keeps every channel's message about a question in step with the approval item: posts it when
 * the question is parked, and once it is decided (answered anywhere, or timed out) updates it to
 * say who answered what and when. Driven by the approvals table's stream (INSERT and MODIFY), so
 * it runs at least once per change: each channel's message records what it shows, and a change
 * it already shows is skipped. A question of a run with a live thread (lib/approvals/run-thread.ts) is
 * posted in that thread.
 */
import type { Approval, ApprovalStore } from '../stores/approval-store';
import { StoreItemNotFoundError } from '../stores/errors';
import type { RunThreadStore } from '../stores/run-thread-store';
import type { ChatChannel } from './message';
import { questionMessage } from './question-message';
import { threadPlacement } from './run-thread';

/** What {@link syncQuestionMessages} works with. */
export interface NotifyDeps {
  readonly approvals: ApprovalStore;
  readonly channels: readonly ChatChannel[];
  /** Runs' live threads: a question is posted in its run's thread when it has one. @default - none */
  readonly threads?: RunThreadStore;
}

/** What a channel's message should show for the item: `asked`, a settled decision, or nothing new yet. */
function wantedView(approval: Approval): string | undefined {
  const d = approval.decision;
  if (d === undefined) return 'asked';
  // Being delivered: the outcome follows in a moment (another change), show it then.
  if (d.outcome === undefined) return undefined;
  return `${d.decisionId}/${d.outcome}`;
}

/**
 * Brings each channel's message about `approvalId` up to date. A channel that fails does not
 * keep the others from being told; the first failure is rethrown at the end (the stream retries).
 * Returns the channels written to.
 */
export async function syncQuestionMessages(deps: NotifyDeps, approvalId: string): Promise<string[]> {
  let approval: Approval;
  try {
    approval = await deps.approvals.get(approvalId);
  } catch (error) {
    // Gone already (the run ended and dropped its questions): nothing to show.
    if (error instanceof StoreItemNotFoundError) return [];
    throw error;
  }
  const view = wantedView(approval);
  if (view === undefined) return [];
  const written: string[] = [];
  const failures: unknown[] = [];
  for (const channel of deps.channels) {
    const shown = approval.messages?.[channel.name];
    if (shown?.shows === view) continue;
    try {
      const message = questionMessage(approval);
      const placement =
        deps.threads === undefined ? undefined : await threadPlacement(deps.threads, approval.runId, channel);
      const ref =
        shown === undefined ? await channel.post(message, placement) : await channel.update(shown, message);
      await deps.approvals.recordMessage(approvalId, channel.name, { ...ref, shows: view });
      written.push(channel.name);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return written;
}
