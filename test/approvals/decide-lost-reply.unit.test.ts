/**
 * An answer whose SendTaskSuccess reached the run but whose reply was lost (#28 item 7): the
 * question is reopened and the answerer asked to answer again; the second try then finds the
 * task closed (`TaskTimedOut`). The execution is asked before the run is said to have ended: a
 * run still running, before the question's timeout, took this answer.
 */
import { DescribeExecutionCommand, SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { decideQuestion } from '../../lib/approvals';
import { ApprovalDeliveryError, ApprovalExpiredError } from '../../lib/approvals/errors';
import { EXECUTION, parkedQuestion, storeWith } from './helpers/approvals';

const sfn = mockClient(SFNClient);
const NOW_MS = 1_700_000_100_000;
const answer = { reply: 'yes', answeredBy: 'bob', via: 'webhook' } as const;

afterEach(() => sfn.reset());

/** The first try's reply is lost on the way back (the call reached Step Functions). */
function lostReplyThenClosed() {
  sfn
    .on(SendTaskSuccessCommand)
    .rejectsOnce(Object.assign(new Error('socket hang up'), { name: 'ECONNRESET', code: 'ECONNRESET' }))
    .rejects(Object.assign(new Error('Task Timed Out'), { name: 'TaskTimedOut' }));
}

describe('decideQuestion after a lost SendTaskSuccess reply', () => {
  it.each([
    { name: 'still running', status: 'RUNNING', kind: 'decided', outcome: 'delivered' },
    { name: 'ended', status: 'SUCCEEDED', kind: 'run-finished', outcome: 'run-finished' },
  ])('says $kind when the execution is $name', async ({ status, kind, outcome }) => {
    // Arrange
    const q = parkedQuestion({ timesOutAt: 1_700_086_400 });
    const store = await storeWith(q);
    const deps = { approvals: store, sfn: new SFNClient({ region: 'eu-west-1' }), now: () => NOW_MS };
    lostReplyThenClosed();
    sfn.on(DescribeExecutionCommand, { executionArn: EXECUTION }).resolves({ status: status as 'RUNNING' });
    await expect(decideQuestion(deps, { approvalId: q.approvalId, ...answer })).rejects.toThrow(
      ApprovalDeliveryError,
    );

    // Act: answer again, as told.
    const result = await decideQuestion(deps, { approvalId: q.approvalId, ...answer });

    // Assert
    expect(result.kind).toBe(kind);
    expect((await store.get(q.approvalId)).decision?.outcome).toBe(outcome);
    expect(sfn.commandCalls(DescribeExecutionCommand)).toHaveLength(1);
  });

  it('says the question expired when the answer comes again past its timeout', async () => {
    // Arrange
    let nowMs = NOW_MS;
    const q = parkedQuestion({ timesOutAt: NOW_MS / 1000 + 60 });
    const store = await storeWith(q);
    const deps = { approvals: store, sfn: new SFNClient({ region: 'eu-west-1' }), now: () => nowMs };
    lostReplyThenClosed();
    await expect(decideQuestion(deps, { approvalId: q.approvalId, ...answer })).rejects.toThrow(
      ApprovalDeliveryError,
    );
    nowMs += 120_000;

    // Act
    const again = decideQuestion(deps, { approvalId: q.approvalId, ...answer });

    // Assert
    await expect(again).rejects.toThrow(ApprovalExpiredError);
    expect(sfn.commandCalls(SendTaskSuccessCommand)).toHaveLength(1);
  });
});
