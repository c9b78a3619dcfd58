/**
 * Scenario: "Ask question" retried by the state machine (a throttled call, `Lambda.Unknown`):
 * its first attempt parked the question, then failed; the retry comes with a new task token and
 * the previous one completes nothing any more. The real handler (APPROVALS_TABLE and LOCK_TABLE
 * set, the real DynamoDB client) runs against a DynamoDB emulator on 127.0.0.1; the first
 * attempt fails at its second call, a lock table that is not there. The question must be asked
 * (and posted to chat) once, and an answer must reach the retry's token.
 */
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import {
  type ChatChannel,
  type ChatMessage,
  decideQuestion,
  syncQuestionMessages,
} from '../../lib/approvals';
import { DynamoDbApprovalStore, DynamoDbJobLock } from '../../lib/stores';
import { emulatedHandlerEnvironment } from '../stores/helpers/dynamodb-emulator';
import { captureOutput, lambdaContext } from './helpers/fixtures';

const { handler: ask } = await import('../../lambdas/ask');

const EXECUTION = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestart:run-1';
const FIRST_TOKEN = 'AQCEAAAAKgAAAAMAAAAAAAAAA-first-attempt-token';
const RETRY_TOKEN = 'AQCEAAAAKgAAAAMAAAAAAAAAA-retried-attempt-token';

const sfn = mockClient(SFNClient);
const emulated = emulatedHandlerEnvironment();
let approvalsTable: string;
let lockTable: string;

beforeEach(async () => {
  approvalsTable = await emulated.db.createTable('ApprovalsTable');
  lockTable = await emulated.db.createTable('LockTable');
  process.env['APPROVALS_TABLE'] = approvalsTable;
  await new DynamoDbJobLock(emulated.db.client, lockTable).acquire(
    { namespace: 'default', jobId: 'web' },
    { owner: EXECUTION, ttlSeconds: 3600 },
  );
  sfn.reset();
  sfn.on(SendTaskSuccessCommand).resolves({});
});

/** The Ask payload the state machine sends after batch 1, with this attempt's token. */
const askEvent = (taskToken: string) => ({
  taskToken,
  executionId: EXECUTION,
  runId: EXECUTION,
  jobId: 'web',
  namespace: 'default',
  question: { kind: 'proceed', prompt: 'Proceed with the next batch? [Y/n/<wait duration>]', summary: '' },
  timeoutSeconds: 3600,
  plan: { allocationCount: 4, batchSize: 2, batchCount: 2 },
  progress: { nextBatch: 1, restarted: 2, failed: 0 },
});

/** The first attempt: parks the question, then fails on the lock table (as a throttle would). */
async function failedFirstAttempt(): Promise<void> {
  process.env['LOCK_TABLE'] = 'no-such-table';
  const { error } = await captureOutput(() => ask(askEvent(FIRST_TOKEN), lambdaContext()));
  expect(error).toBeDefined();
  process.env['LOCK_TABLE'] = lockTable;
}

/** A chat channel that counts what it posts and updates. */
function countingChannel(): ChatChannel & { posts: ChatMessage[]; updates: ChatMessage[] } {
  const posts: ChatMessage[] = [];
  const updates: ChatMessage[] = [];
  return {
    name: 'slack',
    posts,
    updates,
    post: async (m) => {
      posts.push(m);
      return { channel: 'C1', ts: String(posts.length) };
    },
    update: async (ref, m) => {
      updates.push(m);
      return ref;
    },
  };
}

const store = () => new DynamoDbApprovalStore(emulated.db.client, approvalsTable);

describe('ask handler, retried', () => {
  it('keeps one question for the execution and points it at the retried attempt token', async () => {
    // Arrange
    await failedFirstAttempt();

    // Act
    const { result, error } = await captureOutput(() => ask(askEvent(RETRY_TOKEN), lambdaContext()));

    // Assert
    expect(error).toBeUndefined();
    const questions = await store().listByExecution(EXECUTION);
    expect(questions).toHaveLength(1);
    expect(result).toEqual({ approvalId: questions[0]?.approvalId });
    expect(questions[0]?.taskToken).toBe(RETRY_TOKEN);
  });

  it('posts the question to chat once across both attempts', async () => {
    // Arrange: the notifier runs on every change of the table, as its stream drives it.
    const slack = countingChannel();
    const notify = async () => {
      for (const q of await store().listByExecution(EXECUTION))
        await syncQuestionMessages({ approvals: store(), channels: [slack] }, q.approvalId);
    };
    await failedFirstAttempt();
    await notify();

    // Act
    await captureOutput(() => ask(askEvent(RETRY_TOKEN), lambdaContext()));
    await notify();

    // Assert
    expect(slack.posts).toHaveLength(1);
    expect(slack.updates).toHaveLength(0);
  });

  it('delivers an answer to the question chat showed to the token the run waits on', async () => {
    // Arrange: chat posted the first attempt's question; that is the one people answer.
    await failedFirstAttempt();
    const [shown] = await store().listByExecution(EXECUTION);
    await captureOutput(() => ask(askEvent(RETRY_TOKEN), lambdaContext()));
    const approvalId = shown?.approvalId ?? '';

    // Act
    const outcome = await decideQuestion(
      { approvals: store(), sfn: new SFNClient({ region: 'us-east-1' }) },
      { approvalId, reply: 'yes', answeredBy: 'alice', via: 'slack' },
    );

    // Assert
    expect(outcome.kind).toBe('decided');
    const sent = sfn.commandCalls(SendTaskSuccessCommand).map((c) => c.args[0].input.taskToken);
    expect(sent).toEqual([RETRY_TOKEN]);
  });

  it('opens again a question answered between the attempts, whose answer went to a closed token', async () => {
    // Arrange: someone answered the first attempt's question; Step Functions no longer waits on it.
    await failedFirstAttempt();
    const [first] = await store().listByExecution(EXECUTION);
    await decideQuestion(
      { approvals: store(), sfn: new SFNClient({ region: 'us-east-1' }) },
      { approvalId: first?.approvalId ?? '', reply: 'yes', answeredBy: 'alice', via: 'slack' },
    );

    // Act
    await captureOutput(() => ask(askEvent(RETRY_TOKEN), lambdaContext()));

    // Assert
    const reopened = await store().get(first?.approvalId ?? '');
    expect(reopened.decision).toBeUndefined();
    expect(reopened.taskToken).toBe(RETRY_TOKEN);
    const pending = await store().listPending({
      stateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:NomadRestart',
    });
    expect(pending.map((p) => p.approvalId)).toEqual([first?.approvalId]);
  });

  it('asks a new question at the next batch of the same execution', async () => {
    // Arrange
    process.env['LOCK_TABLE'] = lockTable;
    await captureOutput(() => ask(askEvent(FIRST_TOKEN), lambdaContext()));
    const next = { ...askEvent(RETRY_TOKEN), progress: { nextBatch: 2, restarted: 4, failed: 0 } };

    // Act
    await captureOutput(() => ask(next, lambdaContext()));

    // Assert
    const tokens = (await store().listByExecution(EXECUTION)).map((q) => q.taskToken);
    expect(tokens.sort()).toEqual([FIRST_TOKEN, RETRY_TOKEN].sort());
  });
});
