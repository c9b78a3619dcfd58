/**
 * Scenario: the approval and notification uses on the AWS stores (s3rver, dynalite) with every SDK
 * call checked against the calling function's role in the synthesized template. A run with
 * `-batch-wait=ask` parks its question in the approvals table (Ask question); the real question
 * notifier, given the table's stream record, reads it and publishes it on the stack's e-mail topic
 * through the real SNS client (a Publish-only SNS endpoint on 127.0.0.1); the question is
 * answered and the run goes on; its end, as EventBridge delivers it, goes to the real run-end
 * notifier, which publishes the summary on the topic too. A call AWS would deny fails the test
 * with the evaluator's explanation (emulated-aws.ts).
 *
 * Not here: the answer endpoint's `SendTaskSuccess` (see docs/aws.md, "IAM as AWS enforces it").
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { jest } from '@jest/globals';
import { decideQuestion } from '../../lib/approvals/decide';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import type { InvocationInterceptor } from '../../lib/engines/local/engine';
import { LocalTaskTokenCallbacks } from '../../lib/engines/local/task-token-callbacks';
import { toRestartInput } from '../../lib/restart/input';
import { approvalStoreFromEnv } from '../../lib/stores/from-env';
import { REPLAY_KEY_PREFIX } from '../../lib/stores/replay-guard';
import { TaskStates } from '../../lib/workflow/state-names';
import { runWorkflow } from '../engines/local/workflow-harness';
import { lambdaContext } from '../lambdas/private/fixtures';
import { statusChangeEvent } from '../lambdas/private/status-change';
import { type Harness, restartOptions, simpleJob, startHarness, waitAllRunning } from '../steps/harness';
import { useEmulatedAws } from './emulated-aws';
import { type FakeSns, startFakeSns } from './fake-sns';
import { FULL_STACK_NAME } from './full-stack';
import { asFunction } from './iam-check';
import { DEPLOYED } from './template-iam';

jest.setTimeout(60_000);

const aws = useEmulatedAws();
/** The full stack's e-mail topic (test/iam/full-stack.ts): both notifiers may publish on it. */
const TOPIC = `arn:aws:sns:${DEPLOYED.region}:${DEPLOYED.account}:approvals`;

type Handler = (event: unknown, context: unknown) => Promise<unknown>;
let sns: FakeSns;
let questionNotifier: Handler;
let runEndNotifier: Handler;
let h: Harness | undefined;

beforeAll(async () => {
  sns = await startFakeSns();
  Object.assign(process.env, { AWS_ENDPOINT_URL_SNS: sns.url, [APPROVAL_ENV.emailTopicArn]: TOPIC });
  questionNotifier = (await import('../../lambdas/approval-notifier')).handler as unknown as Handler;
  runEndNotifier = (await import('../../lambdas/notify-run-ended')).handler as unknown as Handler;
});
afterAll(async () => {
  await sns.close();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The questions in the approvals table (read outside any function, as the stream would carry them). */
async function questionIds(): Promise<string[]> {
  const dynamodb = new DynamoDBClient({});
  try {
    const out = await dynamodb.send(new ScanCommand({ TableName: aws.approvalsTable }));
    return (out.Items ?? [])
      .map((item) => item['approvalId']?.S ?? '')
      .filter((id) => id !== '' && !id.startsWith(REPLAY_KEY_PREFIX));
  } finally {
    dynamodb.destroy();
  }
}

/** The KEYS_ONLY stream record of `approvalId`, handed to the question notifier as its function. */
const notifyQuestion = (eventName: 'INSERT' | 'MODIFY', approvalId: string) =>
  asFunction('approval-notifier', () =>
    questionNotifier(
      { Records: [{ eventName, dynamodb: { Keys: { approvalId: { S: approvalId } } } }] },
      lambdaContext(),
    ),
  );

/** Completes the one question's task token once the run waits on it, as `nomad-restart approve` would. */
async function approveWhenWaiting(callbacks: LocalTaskTokenCallbacks, approvalId: string): Promise<void> {
  for (let i = 0; callbacks.pending === 0; i++) {
    if (i > 1000) throw new Error('the run never waited on its question');
    await new Promise((resolve) => setImmediate(resolve));
  }
  const sfn = {
    send: async (command: SendTaskSuccessCommand) =>
      callbacks.sendTaskSuccess(String(command.input.taskToken), String(command.input.output)),
  };
  const outcome = await decideQuestion(
    { approvals: approvalStoreFromEnv(), sfn },
    { approvalId, reply: 'y', answeredBy: 'alice', via: 'terminal' },
  );
  expect(outcome.kind).toBe('decided');
}

describe('the chat uses, on the AWS stores with IAM enforced', () => {
  it('a question is parked, published on the topic, answered, its message updated, and the run end published', async () => {
    // Arrange: 2 allocations, one per batch, a question between the two.
    h = await startHarness({ jobs: [simpleJob('web', 'service', 2)] });
    await waitAllRunning(h, 'web', 2);
    const callbacks = new LocalTaskTokenCallbacks();
    const asked: string[] = [];
    let answered = Promise.resolve();
    const notifyAndAnswer: InvocationInterceptor = async (state, invoke) => {
      const result = await invoke();
      if (state === TaskStates.ask) {
        const [id] = await questionIds();
        if (id === undefined) throw new Error('Ask question parked no question');
        asked.push(id);
        await notifyQuestion('INSERT', id);
        answered = approveWhenWaiting(callbacks, id).then(() => notifyQuestion('MODIFY', id).then(() => {}));
      }
      return result;
    };
    const options = restartOptions('web', { batchWait: { kind: 'ask' }, yes: false });
    const from = aws.ledger.calls.length;
    const startDate = Date.now();

    // Act
    const run = await runWorkflow(h, options, {
      taskTokenCallbacks: callbacks,
      interceptInvocation: notifyAndAnswer,
    });
    await answered;
    const [execution] = run.result.executions;
    if (execution === undefined) throw new Error('the run had no execution');
    await asFunction('notify-run-ended', () =>
      runEndNotifier(
        statusChangeEvent({
          // The local execution as the full stack's state machine runs it.
          executionArn: execution.executionArn.replace(
            /:local:000000000000:execution:[^:]+:/,
            `:${DEPLOYED.region}:${DEPLOYED.account}:execution:${FULL_STACK_NAME}-Restart:`,
          ),
          status: execution.status,
          startDate,
          stopDate: Date.now(),
          input: toRestartInput(options),
          output: execution.output,
        }),
        lambdaContext(),
      ),
    );

    // Assert
    expect(run.exitCode).toBe(0);
    expect(asked).toHaveLength(1);
    expect(sns.published.map((p) => [p.topicArn, p.subject])).toEqual([
      [TOPIC, 'nomad-restart: a question about job "web"'],
      [TOPIC, 'Update: nomad-restart: a question about job "web"'],
      [TOPIC, 'nomad-restart: restart of job "web" succeeded'],
    ]);
    expect(sns.published[1]?.message).toContain('alice');
    const used = (fn: string) => [
      ...new Set(
        aws.ledger.calls
          .slice(from)
          .filter((c) => c.functionName === fn)
          .map((c) => c.request.action),
      ),
    ];
    expect(used('ask')).toContain('dynamodb:PutItem');
    expect(used('approval-notifier')).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:UpdateItem', 'sns:Publish']),
    );
    expect(used('notify-run-ended')).toContain('sns:Publish');
  });
});
