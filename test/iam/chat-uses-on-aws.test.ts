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
 * The answer endpoint runs the same way: a run's question is answered by a signed Slack button
 * press handed to the real endpoint handler, with the environment the template gives its function;
 * it reads its secrets through the real Secrets Manager client and answers the execution through
 * the real Step Functions client (both served on 127.0.0.1, fake-json-services.ts), its
 * `SendTaskSuccess` checked on the state machine whose execution issued the token.
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { APPROVAL_ROUTES } from '../../lib/approvals/endpoint';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import type { InvocationInterceptor } from '../../lib/engines/local/engine';
import { LocalTaskTokenCallbacks } from '../../lib/engines/local/task-token-callbacks';
import { toRestartInput } from '../../lib/restart/input';
import { REPLAY_KEY_PREFIX } from '../../lib/stores/replay-guard';
import { TaskStates } from '../../lib/workflow/state-names';
import { buttonPress, SIGNING_SECRET, slackBody, slackHeaders } from '../approvals/helpers/approvals';
import { functionUrlEvent } from '../approvals/helpers/local-loop';
import { decideWhenWaiting, untilWaiting } from '../engines/local/helpers/task-token-answers';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { endedExecutionEvent } from '../lambdas/helpers/status-change';
import { harnessPerTest, simpleJob } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';
import {
  secretsManagerServing,
  startFakeJsonServices,
  stepFunctionsAnswering,
} from './helpers/fake-json-services';
import { type FakeSns, startFakeSns } from './helpers/fake-sns';
import { FULL_STACK_NAME } from './helpers/full-stack-template';
import { asFunction } from './helpers/iam-check';
import { DEPLOYED } from './helpers/template-iam';
import { withEnvironment } from './helpers/with-environment';

const aws = useEmulatedAws();
/** The full stack's e-mail topic (test/iam/helpers/full-stack.ts): both notifiers may publish on it. */
const TOPIC = `arn:aws:sns:${DEPLOYED.region}:${DEPLOYED.account}:approvals`;

type Handler = (event: unknown, context: unknown) => Promise<unknown>;
type HttpResponse = { statusCode: number; body: string };
let sns: FakeSns;
let questionNotifier: Handler;
let runEndNotifier: Handler;
let answerEndpoint: Handler;
const harness = harnessPerTest();

beforeAll(async () => {
  sns = await startFakeSns();
  Object.assign(process.env, { AWS_ENDPOINT_URL_SNS: sns.url, [APPROVAL_ENV.emailTopicArn]: TOPIC });
  questionNotifier = (await import('../../lambdas/approval-notifier')).handler as unknown as Handler;
  runEndNotifier = (await import('../../lambdas/notify-run-ended')).handler as unknown as Handler;
  answerEndpoint = (await import('../../lambdas/approval-endpoint')).handler as unknown as Handler;
});
afterAll(async () => {
  await sns.close();
});

/** The questions in the approvals table (read outside any function, as the stream would carry them). */
async function questions(): Promise<{ approvalId: string; taskToken: string }[]> {
  const dynamodb = new DynamoDBClient({});
  try {
    const out = await dynamodb.send(new ScanCommand({ TableName: aws.approvalsTable }));
    return (out.Items ?? [])
      .map((item) => ({ approvalId: item['approvalId']?.S ?? '', taskToken: item['taskToken']?.S ?? '' }))
      .filter(({ approvalId }) => approvalId !== '' && !approvalId.startsWith(REPLAY_KEY_PREFIX));
  } finally {
    dynamodb.destroy();
  }
}

/** Resolves once the run waits on a task token. */

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
  const outcome = await decideWhenWaiting(callbacks, {
    approvalId,
    reply: 'y',
    answeredBy: 'alice',
    via: 'terminal',
  });
  expect(outcome.kind).toBe('decided');
}

/** The endpoint's environment as the template gives its function (the table is the emulator's). */
function endpointEnvironment(): Record<string, string> {
  // NODE_OPTIONS configures the Lambda runtime's Node, not this process.
  const { NODE_OPTIONS: _, ...env } = aws.check.functionEnvironment('approval-endpoint');
  return env;
}

/** The values of the secrets the endpoint's environment names (a Slack bot token, signing secret, webhook keys). */
function endpointSecrets(env: Record<string, string>): Record<string, string> {
  const arn = (name: string) => {
    const value = env[name];
    if (value === undefined) throw new Error(`The endpoint's environment has no ${name}`);
    return value;
  };
  return {
    [arn(APPROVAL_ENV.slackBotTokenSecretArn)]: 'xoxb-bot-token',
    [arn(APPROVAL_ENV.slackSigningSecretArn)]: SIGNING_SECRET,
    [arn(APPROVAL_ENV.webhookSecretArn)]: JSON.stringify({ k1: 'webhook-key-k1' }),
  };
}

/**
 * Slack's request for U1 pressing `reply` on `approvalId` in the stack's channel, signed now,
 * handed to the endpoint handler as its Function URL would, with `env` set while it runs.
 */
async function pressThroughEndpoint(
  env: Record<string, string>,
  approvalId: string,
  reply: string,
): Promise<HttpResponse> {
  const channel = env[APPROVAL_ENV.slackChannelId] ?? '';
  const body = slackBody(buttonPress(approvalId, reply, { user: 'U1', team: 'T1', channel }));
  const headers = slackHeaders(body, Math.floor(Date.now() / 1000));
  return (await withEnvironment(env, () =>
    asFunction('approval-endpoint', () =>
      answerEndpoint(functionUrlEvent(APPROVAL_ROUTES.slack, headers, body), lambdaContext()),
    ),
  )) as HttpResponse;
}

describe('the chat uses, on the AWS stores with IAM enforced', () => {
  it('a question is parked, published on the topic, answered, its message updated, and the run end published', async () => {
    // Arrange: 2 allocations, one per batch, a question between the two.
    const h = await harness.startRunning(simpleJob('web', 'service', 2));
    const callbacks = new LocalTaskTokenCallbacks();
    const asked: string[] = [];
    let answered = Promise.resolve();
    const notifyAndAnswer: InvocationInterceptor = async (state, invoke) => {
      const result = await invoke();
      if (state === TaskStates.ask) {
        const id = (await questions())[0]?.approvalId;
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
        endedExecutionEvent(execution, {
          startDate,
          input: toRestartInput(options),
          // The local execution as the full stack's state machine runs it.
          executionArn: execution.executionArn.replace(
            /:local:000000000000:execution:[^:]+:/,
            `:${DEPLOYED.region}:${DEPLOYED.account}:execution:${FULL_STACK_NAME}-Restart:`,
          ),
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

  it('a question is answered through the endpoint by a signed Slack button press, and the run finishes', async () => {
    // Arrange: 2 allocations, one per batch, a question between the two; Step Functions and
    // Secrets Manager on 127.0.0.1 for the endpoint's clients.
    const h = await harness.startRunning(simpleJob('web', 'service', 2));
    const callbacks = new LocalTaskTokenCallbacks();
    const env = endpointEnvironment();
    const services = await startFakeJsonServices({
      ...stepFunctionsAnswering(callbacks),
      ...secretsManagerServing(endpointSecrets(env)),
    });
    Object.assign(env, {
      AWS_ENDPOINT_URL_SFN: services.url,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: services.url,
    });
    const responses: HttpResponse[] = [];
    let answered = Promise.resolve();
    const answerThroughEndpoint: InvocationInterceptor = async (state, invoke) => {
      const result = await invoke();
      if (state === TaskStates.ask) {
        const [question] = await questions();
        if (question === undefined) throw new Error('Ask question parked no question');
        // Deployed, the token comes from an execution of the stack's state machine: the one this
        // local run runs the definition of.
        aws.check.taskTokenIssuedBy(question.taskToken, aws.check.stateMachineArn());
        answered = untilWaiting(callbacks).then(async () => {
          const response = await pressThroughEndpoint(env, question.approvalId, 'yes');
          responses.push(response);
          // Refused (a denied call is a 500): end the run now rather than at the test's timeout.
          if (response.statusCode !== 200 && callbacks.pending > 0)
            callbacks.sendTaskFailure(question.taskToken, 'EndpointRefused', response.body);
        });
      }
      return result;
    };
    const from = aws.ledger.calls.length;

    // Act
    let run: Awaited<ReturnType<typeof runWorkflow>>;
    try {
      run = await runWorkflow(h, restartOptions('web', { batchWait: { kind: 'ask' }, yes: false }), {
        taskTokenCallbacks: callbacks,
        interceptInvocation: answerThroughEndpoint,
      });
      await answered;
    } finally {
      await services.close();
    }

    // Assert: the run took the answer and finished; every call the endpoint made was checked.
    expect(responses).toEqual([expect.objectContaining({ statusCode: 200 })]);
    expect(run.exitCode).toBe(0);
    expect(run.result.executions.map((e) => e.status)).toEqual(['SUCCEEDED']);
    const endpointCalls = aws.ledger.calls
      .slice(from)
      .filter((c) => c.functionName === 'approval-endpoint')
      .map((c) => `${c.request.action} ${c.request.resource}`);
    const secretArns = Object.keys(endpointSecrets(env)).sort();
    expect(endpointCalls.filter((c) => c.startsWith('secretsmanager:')).sort()).toEqual(
      secretArns.map((arn) => `secretsmanager:GetSecretValue ${arn}`),
    );
    expect(endpointCalls).toContain(`states:SendTaskSuccess ${aws.check.stateMachineArn()}`);
    expect(endpointCalls.filter((c) => c.startsWith('dynamodb:'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^dynamodb:PutItem /),
        expect.stringMatching(/^dynamodb:UpdateItem /),
      ]),
    );
    expect(services.called.filter((t) => t.startsWith('AWSStepFunctions.'))).toEqual([
      'AWSStepFunctions.SendTaskSuccess',
    ]);
  });
});
