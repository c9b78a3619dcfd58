/**
 * The chat-ops loop run locally, as on AWS but without it: the local engine parks questions
 * through the real ask handler, the approvals store's change feed stands in for the table's
 * stream and drives the real notifier handler (so do runs' progress records, for their live threads), the real endpoint handler takes Function URL
 * events, and the Step Functions client (faked with aws-sdk-client-mock) completes the local
 * engine's task tokens, as `SendTaskSuccess` completes them on AWS.
 */
import {
  SendTaskSuccessCommand,
  type ServiceInputTypes,
  type ServiceOutputTypes,
  SFNClient,
  type SFNClientResolvedConfig,
} from '@aws-sdk/client-sfn';
import type { Context, LambdaFunctionURLEvent } from 'aws-lambda';
import { type AwsStub, mockClient } from 'aws-sdk-client-mock';
import { LocalTaskTokenCallbacks } from '../../../lib/engines/local/task-token-callbacks';
import { localStores } from '../../../lib/stores/from-env';
import { runThreadKey } from '../../../lib/stores/run-thread-store';
import { lambdaContext } from '../../lambdas/helpers/fixtures';

type Handler = (event: unknown, context: Context) => Promise<unknown>;

/** A Function URL event for a POST to `path` with `headers` and a raw `body`. */
export function functionUrlEvent(
  path: string,
  headers: Record<string, string>,
  body: string,
): LambdaFunctionURLEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'anonymous',
      apiId: 'local',
      domainName: 'local.lambda-url.eu-west-1.on.aws',
      domainPrefix: 'local',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'Slackbot' },
      requestId: crypto.randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: '',
      timeEpoch: Date.now(),
    },
  } as LambdaFunctionURLEvent;
}

/** The loop's moving parts. */
export interface LocalLoop {
  readonly callbacks: LocalTaskTokenCallbacks;
  readonly sfn: AwsStub<ServiceInputTypes, ServiceOutputTypes, SFNClientResolvedConfig>;
  /** Every answer the notifier and the endpoint returned, and every error the notifier threw. */
  readonly notifierErrors: unknown[];
  /** Calls the endpoint handler as its Function URL would. */
  answer(
    path: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ statusCode: number; body: string }>;
  /** Resolves once the notifier has handled every change so far. */
  settled(): Promise<void>;
  close(): void;
}

/** Wires the notifier to the store's change feed and SendTaskSuccess to the local task tokens. */
export async function startLocalLoop(): Promise<LocalLoop> {
  const notifier = (await import('../../../lambdas/approval-notifier')).handler as unknown as Handler;
  const endpoint = (await import('../../../lambdas/approval-endpoint')).handler as unknown as Handler;
  const callbacks = new LocalTaskTokenCallbacks();
  const sfn = mockClient(SFNClient);
  sfn.on(SendTaskSuccessCommand).callsFake((input: { taskToken: string; output: string }) => {
    callbacks.sendTaskSuccess(input.taskToken, input.output);
    return {};
  });
  const notifierErrors: unknown[] = [];
  // One change at a time, in order, as a stream shard delivers them.
  let queue = Promise.resolve();
  const notify = (eventName: string, key: string) => {
    const event = { Records: [{ eventName, dynamodb: { Keys: { approvalId: { S: key } } } }] };
    queue = queue.then(() =>
      notifier(event, lambdaContext()).then(
        () => undefined,
        (error: unknown) => void notifierErrors.push(error),
      ),
    );
  };
  const unsubscribe = localStores.approvals.subscribe(({ eventName, approvalId }) =>
    notify(eventName, approvalId),
  );
  // A run's progress records (RUN_THREAD=on) reach the notifier as the thread item's stream records.
  const unsubscribeThreads = localStores.runThreads.subscribe((runId) =>
    notify('MODIFY', runThreadKey(runId)),
  );
  return {
    callbacks,
    sfn,
    notifierErrors,
    answer: async (path, headers, body) =>
      (await endpoint(functionUrlEvent(path, headers, body), lambdaContext())) as {
        statusCode: number;
        body: string;
      },
    settled: async () => {
      let seen: Promise<void> | undefined;
      while (seen !== queue) {
        seen = queue;
        await queue;
      }
    },
    close: () => {
      unsubscribe();
      unsubscribeThreads();
      sfn.restore();
    },
  };
}
