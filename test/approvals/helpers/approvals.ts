/**
 * Test helpers for chat-ops approvals: a parked question in a store, and Slack and webhook
 * requests signed exactly as Slack and a webhook sender sign them.
 */
import { createHmac } from 'node:crypto';
import { SFNClient } from '@aws-sdk/client-sfn';
import type { EndpointDeps } from '../../../lib/approvals';
import {
  type Approval,
  type ApprovalStore,
  MemoryApprovalStore,
  MemoryReplayGuard,
  newApprovalId,
} from '../../../lib/stores';

export const SIGNING_SECRET = 'slack-signing-secret-for-tests';
export const WEBHOOK_KEYS = { ops: 'webhook-secret-ops', notify: 'webhook-secret-notify' };
export const TASK_TOKEN = 'AQCEAAAAKgAAAAMAAAAAAAAAAT-task-token-secret';
export const EXECUTION = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-1';

/** A batch-wait question parked for `EXECUTION`. */
export function parkedQuestion(over: Partial<Approval> = {}): Approval {
  return {
    approvalId: newApprovalId(),
    executionId: EXECUTION,
    taskToken: TASK_TOKEN,
    kind: 'proceed',
    prompt: 'Proceed with the next batch? [Y/n/<wait duration>]',
    summary: '',
    jobId: 'web',
    namespace: 'default',
    createdAt: 1_700_000_000,
    expiresAt: 1_800_000_000,
    region: 'global',
    startedBy: 'alice@laptop',
    batch: { number: 1, count: 3, size: 2 },
    totals: { restarted: 2, failed: 0 },
    ...over,
  };
}

/** A store holding `approvals`. */
export async function storeWith(...approvals: Approval[]): Promise<MemoryApprovalStore> {
  const store = new MemoryApprovalStore();
  for (const a of approvals) await store.put(a);
  return store;
}

/** A Slack interactivity body: `payload=<JSON>`, form-encoded. */
export function slackBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** A block_actions payload: `user` pressed the button answering `reply` to `approvalId`. */
export function buttonPress(
  approvalId: string,
  reply: string,
  who = { user: 'U1', team: 'T1', channel: 'C1' },
) {
  return {
    type: 'block_actions',
    user: { id: who.user, username: 'alice' },
    team: { id: who.team },
    channel: { id: who.channel },
    trigger_id: 'trigger-1',
    actions: [{ action_id: `answer:${reply}`, block_id: `approval:${approvalId}`, value: reply }],
  };
}

/** Headers Slack sends with `body` at `timestampSeconds`, signed with `secret`. */
export function slackHeaders(body: string, timestampSeconds: number, secret = SIGNING_SECRET) {
  const signature = createHmac('sha256', secret).update(`v0:${timestampSeconds}:${body}`).digest('hex');
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestampSeconds),
    'x-slack-signature': `v0=${signature}`,
  };
}

/** Headers of a webhook answer signed with key `keyId`. */
export function webhookHeaders(body: string, timestampSeconds: number, keyId: string, secret: string) {
  const signature = createHmac('sha256', secret).update(`v1:${timestampSeconds}:${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-nomad-restart-key-id': keyId,
    'x-nomad-restart-timestamp': String(timestampSeconds),
    'x-nomad-restart-signature': `v1=${signature}`,
  };
}

/**
 * The approval endpoint's dependencies around `store` at `nowS` (Unix seconds): Slack signed with
 * SIGNING_SECRET and answered by U1 of T1 through `api`, webhooks signed with key "ops" of
 * WEBHOOK_KEYS, Step Functions' client (a test mocks it), log lines to `log`.
 */
export function endpointDeps(
  store: ApprovalStore,
  nowS: number,
  log: EndpointDeps['log'],
  api: NonNullable<EndpointDeps['slack']>['api'],
): EndpointDeps {
  return {
    decide: { approvals: store, sfn: new SFNClient({ region: 'eu-west-1' }), now: () => nowS * 1000 },
    replays: new MemoryReplayGuard(() => nowS),
    log,
    now: () => nowS * 1000,
    slack: { signingSecret: SIGNING_SECRET, allow: { userIds: ['U1'], teamIds: ['T1'] }, api },
    webhook: { keys: WEBHOOK_KEYS, allowedKeyIds: ['ops'] },
  };
}
