/**
 * Two answers racing for one question, decided by a real conditional write on a DynamoDB emulator
 * (dynalite on 127.0.0.1, the deployed table's keys and indexes): exactly one SendTaskSuccess
 * (the SFN client faked), and every other answerer is told who decided what and when.
 */
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { decideQuestion } from '../../lib/approvals';
import { DynamoDbApprovalStore } from '../../lib/stores';
import { emulatedTable } from '../stores/helpers/dynamodb-emulator';
import { parkedQuestion, TASK_TOKEN } from './helpers/approvals';

const sfn = mockClient(SFNClient);

describe('decideQuestion on a DynamoDB emulator', () => {
  const emulated = emulatedTable('ApprovalsTable');
  beforeEach(() => {
    sfn.reset();
    sfn.on(SendTaskSuccessCommand).resolves({});
  });

  it('sends exactly one SendTaskSuccess when chat and a terminal answer at once; the other is told who decided', async () => {
    // Arrange: each answerer with a DynamoDB client of its own, as the endpoint and a terminal would.
    const q = parkedQuestion();
    await new DynamoDbApprovalStore(emulated.db.client, emulated.table).put(q);
    const answer = (who: string, reply: string, via: 'slack' | 'terminal') =>
      decideQuestion(
        {
          approvals: new DynamoDbApprovalStore(emulated.db.newClient(), emulated.table),
          sfn: new SFNClient({ region: 'eu-west-1' }),
        },
        { approvalId: q.approvalId, reply, answeredBy: who, via },
      );

    // Act
    const outcomes = await Promise.all([answer('alice', 'yes', 'slack'), answer('bob', 'no', 'terminal')]);

    // Assert
    const decided = outcomes.filter((o) => o.kind === 'decided');
    const told = outcomes.filter((o) => o.kind === 'already-decided');
    expect(decided).toHaveLength(1);
    expect(told).toHaveLength(1);
    expect(told[0]?.decision.answeredBy).toBe(decided[0]?.decision.answeredBy);
    expect(told[0]?.decision.answer).toBe(decided[0]?.decision.answer);
    const calls = sfn.commandCalls(SendTaskSuccessCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input.taskToken).toBe(TASK_TOKEN);
    expect(JSON.parse(calls[0]?.args[0].input.output ?? '{}')).toEqual({
      answer: decided[0]?.decision.answer,
      answeredBy: decided[0]?.decision.answeredBy,
    });
    expect(
      (await new DynamoDbApprovalStore(emulated.db.client, emulated.table).get(q.approvalId)).decision
        ?.outcome,
    ).toBe('delivered');
  });
});
