/**
 * An answer whose SendTaskSuccess reached the run but whose reply was lost (#28 item 7): the
 * question is reopened and the answerer asked to answer again; the second try then finds the
 * task closed (`TaskTimedOut`). The execution is asked before the run is said to have ended: a
 * run still running, before the question's timeout, took this answer.
 */
import { DescribeExecutionCommand, SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { decideQuestion } from '../../lib/approvals';
import { ApprovalDeliveryError } from '../../lib/approvals/errors';
import { EXECUTION, parkedQuestion, storeWith } from './helpers';

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
    {
      name: 'still running, before the timeout',
      status: 'RUNNING',
      timesOutAt: 1_700_086_400,
      kind: 'decided',
    },
    { name: 'ended', status: 'SUCCEEDED', timesOutAt: 1_700_086_400, kind: 'run-finished' },
    {
      name: 'still running, past the timeout',
      status: 'RUNNING',
      timesOutAt: 1_700_000_050,
      kind: 'run-finished',
    },
  ])('says $kind when the execution is $name', async ({ status, timesOutAt, kind }) => {
    // Arrange
    const q = parkedQuestion({ timesOutAt });
    const store = await storeWith(q);
    const deps = { approvals: store, sfn: new SFNClient({ region: 'eu-west-1' }), now: () => NOW_MS };
    lostReplyThenClosed();
    sfn.on(DescribeExecutionCommand, { executionArn: EXECUTION }).resolves({ status: status as 'RUNNING' });
    await expect(decideQuestion(deps, { approvalId: q.approvalId, ...answer })).rejects.toThrow(
      ApprovalDeliveryError,
    );

    // Act: answer again, as told.
    const outcome = await decideQuestion(deps, { approvalId: q.approvalId, ...answer });

    // Assert
    expect(outcome.kind).toBe(kind);
    expect((await store.get(q.approvalId)).decision?.outcome).toBe(
      kind === 'decided' ? 'delivered' : 'run-finished',
    );
    expect(sfn.commandCalls(DescribeExecutionCommand)).toHaveLength(
      status === 'RUNNING' && kind === 'run-finished' ? 0 : 1,
    );
  });
});
