/**
 * The approval endpoint (Lambda Function URL): Slack interactivity, signed webhook answers, and
 * signed webhook run-control requests (pause, resume, stop).
 * Turns the URL's event into a raw request (signatures cover the raw body) and hands it to
 * `handleApprovalRequest`, which verifies, refuses replays and answerers off the allow-list, and
 * decides each question once. Logs carry ids, names and statuses only.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import type { LambdaFunctionURLEvent } from 'aws-lambda';
import {
  type ApprovalHttpResponse,
  type EndpointDeps,
  handleApprovalRequest,
} from '../lib/approvals/endpoint';
import { APPROVAL_ENV } from '../lib/approvals/settings';
import { SlackChannel } from '../lib/approvals/slack-channel';
import { awsSdkClient } from '../lib/stores/aws-client-config';
import { approvalStoreFromEnv, jobLockFromEnv, replayGuardFromEnv } from '../lib/stores/from-env';
import { approvalSettings } from './private/approval-wiring';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

let sfn: SFNClient | undefined;

/** The one-job state machine, where a fleet's parked jobs' questions are listed. */
function restartStateMachine(): { restartStateMachineArn?: string } {
  const arn = process.env[APPROVAL_ENV.restartStateMachineArn] ?? '';
  return arn === '' ? {} : { restartStateMachineArn: arn };
}

async function endpointDeps(): Promise<EndpointDeps> {
  const settings = await approvalSettings();
  // Before Slack's 3-second acknowledgement: short attempts (the decision reopens the question
  // and says to answer again when Step Functions cannot be told in time).
  sfn ??= awsSdkClient(SFNClient, { maxAttempts: 2 }, { connectionTimeoutMs: 500, requestTimeoutMs: 1_000 });
  const { slack, webhook } = settings;
  return {
    decide: { approvals: approvalStoreFromEnv(), sfn },
    replays: replayGuardFromEnv(),
    // Pause and stop requests go on the run's lock item (the lock table).
    lock: jobLockFromEnv(),
    ...restartStateMachine(),
    log: logger,
    now: Date.now,
    ...(slack === undefined
      ? {}
      : {
          slack: {
            signingSecret: slack.signingSecret,
            allow: slack.allow,
            api: new SlackChannel({
              botToken: slack.botToken,
              channelId: slack.channelId,
              prompt: true,
              ...(slack.apiUrl === undefined ? {} : { slackApiUrl: slack.apiUrl }),
            }),
          },
        }),
    ...(webhook === undefined
      ? {}
      : { webhook: { keys: webhook.keys, allowedKeyIds: webhook.answerKeyIds } }),
  };
}

const answerRequest = async (event: LambdaFunctionURLEvent): Promise<ApprovalHttpResponse> => {
  const raw = event.body ?? '';
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return handleApprovalRequest(await endpointDeps(), {
    method: event.requestContext.http.method,
    path: event.rawPath,
    headers,
    body: event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw,
  });
};

export const handler = stepHandler(answerRequest, { workflowErrors: false });
