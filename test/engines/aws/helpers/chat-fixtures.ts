/**
 * Chat's side of a question, as the approval endpoint answers it in its Lambda: a Slack button
 * press signed with the signing secret, verified and decided through the one decision function
 * over the same approvals table a terminal uses (here the DynamoDB emulator), with Step Functions
 * reached through the SDK (faked in-process). What Slack would be told privately is recorded.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { APPROVAL_ROUTES, handleApprovalRequest } from '../../../../lib/approvals';
import {
  type Approval,
  type ApprovalStore,
  DynamoDbApprovalStore,
  MemoryReplayGuard,
} from '../../../../lib/stores';
import {
  buttonPress,
  parkedQuestion,
  SIGNING_SECRET,
  slackBody,
  slackHeaders,
} from '../../../approvals/helpers/approvals';
import { type EmulatedTable, emulatedTable } from '../../../stores/helpers/dynamodb-emulator';
import { REGION } from './fixtures';

/** Slack's answer to the press, and what the presser was told privately (an "already decided" note). */
export interface SlackPress {
  readonly statusCode: number;
  readonly told: string[];
}

/** Alice (Slack U1, allowed to answer) presses the button answering `reply` to `approvalId`. */
export async function pressSlackButton(
  approvals: ApprovalStore,
  approvalId: string,
  reply: string,
): Promise<SlackPress> {
  const told: string[] = [];
  const body = slackBody(buttonPress(approvalId, reply));
  const response = await handleApprovalRequest(
    {
      decide: { approvals, sfn: new SFNClient({ region: REGION }) },
      replays: new MemoryReplayGuard(),
      log: { info: () => undefined, warn: () => undefined },
      now: Date.now,
      slack: {
        signingSecret: SIGNING_SECRET,
        allow: { userIds: ['U1'] },
        api: {
          tellPrivately: async (_channel, _user, text) => void told.push(text),
          openModal: async () => undefined,
        },
      },
    },
    {
      method: 'POST',
      path: APPROVAL_ROUTES.slack,
      headers: slackHeaders(body, Math.floor(Date.now() / 1000)),
      body,
    },
  );
  return { statusCode: response.statusCode, told };
}

/** A question parked by the ask step of `executionId` on `taskToken`, created `ageSeconds` ago. */
export function parkedOn(
  executionId: string,
  taskToken: string,
  over: Partial<Approval> = {},
  ageSeconds = 0,
): Approval {
  const createdAt = Math.floor(Date.now() / 1000) - ageSeconds;
  return parkedQuestion({
    executionId,
    taskToken,
    jobId: 'example',
    createdAt,
    expiresAt: createdAt + 86_400,
    ...over,
  });
}

/** The approvals table of a test, on the emulator. */
export interface EmulatedApprovalsTable extends EmulatedTable {
  /** The table through the emulator's own client (what the ask step and the test write). */
  readonly store: DynamoDbApprovalStore;
}

/**
 * Starts the DynamoDB emulator for the test file calling this (once), and gives each test a fresh
 * approvals table. Read the fields inside tests and hooks only.
 */
export function emulatedApprovalsTable(): EmulatedApprovalsTable {
  const emulated = emulatedTable('ApprovalsTable');
  return {
    get db() {
      return emulated.db;
    },
    get table() {
      return emulated.table;
    },
    get store() {
      // A thin view of this test's table: nothing in it to keep between reads.
      return new DynamoDbApprovalStore(emulated.db.client, emulated.table);
    },
  };
}
