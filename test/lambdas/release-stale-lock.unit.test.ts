/**
 * Scenario: an execution that parked a question is aborted (a stop from the console, a timeout).
 * The stale-lock rule's handler, invoked as EventBridge invokes it, closes the question instead of
 * deleting it: the item gets a `run-ended` decision (chat's message then says the run ended and
 * loses its buttons; a later answer is told the question is closed), leaves the pending list, and
 * expires with its TTL. Other executions' questions and questions already decided are left alone.
 */
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { decideQuestion } from '../../lib/approvals/decide';
import { questionMessage } from '../../lib/approvals/question-message';
import { closeOpenQuestions } from '../../lib/approvals/timeouts';
import { MemoryApprovalStore } from '../../lib/stores';
import { EXECUTION, parkedQuestion } from '../approvals/helpers/approvals';
import { withoutSharedLock } from '../fixtures/shared-lock-off';
import { lambdaContext } from './helpers/fixtures';

const { handler } = await import('../../lambdas/release-stale-lock');
const { localStores } = await import('../../lib/stores/from-env');

const OTHER = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-2';
const sfn = mockClient(SFNClient);
afterEach(() => sfn.reset());

describe('release-stale-lock handler', () => {
  // The questions are this file's subject; the job's shared lock in Nomad, which the handler also
  // releases, is left out here (no Nomad runs beside this test) and tested with the simulator in
  // test/faults/interrupted-run.test.ts.
  withoutSharedLock();

  it('closes the aborted execution’s open question, and keeps it for chat to show', async () => {
    // Arrange
    const open = parkedQuestion();
    const elsewhere = parkedQuestion({ executionId: OTHER });
    await localStores.approvals.put(open);
    await localStores.approvals.put(elsewhere);
    const event = { detail: { executionArn: EXECUTION, status: 'ABORTED', input: '{"job":"web"}' } };

    // Act
    await handler(event, lambdaContext());

    // Assert
    const closed = await localStores.approvals.get(open.approvalId);
    expect(closed.decision).toMatchObject({ via: 'run-ended', outcome: 'run-finished', answer: '' });
    expect(questionMessage(closed).lines.at(-1)).toMatch(
      /^The run ended before anyone answered: the question was closed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/,
    );
    expect(questionMessage(closed).answers).toBeUndefined();
    const ofExecution = await localStores.approvals.listByExecution(EXECUTION);
    expect(ofExecution.filter((a) => a.decision === undefined)).toEqual([]);
    expect((await localStores.approvals.get(elsewhere.approvalId)).decision).toBeUndefined();
  });

  it('reads the run id with DescribeExecution when EventBridge left the input out, and frees its lock', async () => {
    // Arrange: the run's lock is held by its first execution; its third one was aborted.
    const key = { namespace: 'default', jobId: 'big-job' };
    const third = `${OTHER}-3`;
    await localStores.lock.acquire(key, { owner: OTHER, ttlSeconds: 3600 });
    sfn.on(DescribeExecutionCommand, { executionArn: third }).resolves({
      status: 'ABORTED',
      input: JSON.stringify({
        continuation: { run: { runId: OTHER, executionId: third, executionNumber: 3 } },
      }),
    });
    const event = { detail: { executionArn: third, status: 'ABORTED', input: null } };

    // Act
    const result = await handler(event, lambdaContext());

    // Assert
    expect(result).toEqual({ released: 1 });
    expect(localStores.lock.holder(key)).toBeUndefined();
    expect(sfn.commandCalls(DescribeExecutionCommand)).toHaveLength(1);
  });
});

describe('closeOpenQuestions when the run ended', () => {
  it('leaves a decided question’s decision as it was', async () => {
    // Arrange
    const store = new MemoryApprovalStore();
    const answered = parkedQuestion({
      decision: {
        decisionId: 'd',
        answer: 'yes',
        answeredBy: 'bob',
        via: 'slack',
        decidedAt: 1,
        outcome: 'delivered',
      },
    });
    const open = parkedQuestion();
    await store.put(answered);
    await store.put(open);

    // Act
    const closed = await closeOpenQuestions(store, EXECUTION, 'run-ended', () => 1_700_000_000_000);

    // Assert
    expect(closed).toBe(1);
    expect((await store.get(answered.approvalId)).decision?.answeredBy).toBe('bob');
    expect((await store.get(open.approvalId)).decision?.decidedAt).toBe(1_700_000_000);
  });

  it('tells a later answer that the question is closed, and sends nothing', async () => {
    // Arrange
    const store = new MemoryApprovalStore();
    const q = parkedQuestion();
    await store.put(q);
    await closeOpenQuestions(store, EXECUTION, 'run-ended');
    const sent: unknown[] = [];

    // Act
    const outcome = await decideQuestion(
      { approvals: store, sfn: { send: async (command) => void sent.push(command) } },
      { approvalId: q.approvalId, reply: 'yes', answeredBy: 'alice', via: 'slack' },
    );

    // Assert
    expect(outcome).toMatchObject({ kind: 'already-decided', decision: { via: 'run-ended' } });
    expect(sent).toEqual([]);
  });
});
