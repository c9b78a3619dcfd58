/**
 * The approval store and the replay guard against a DynamoDB emulator (dynalite over HTTP on
 * 127.0.0.1, the deployed table's keys and indexes), so that real conditional writes decide which
 * answer a question takes and whether a request was seen before.
 */
import {
  type Approval,
  type ApprovalDecision,
  DynamoDbApprovalStore,
  DynamoDbReplayGuard,
  newApprovalId,
  StoreItemNotFoundError,
} from '../../lib/stores';
import { parkedQuestion } from '../approvals/helpers/approvals';
import { emulatedTable } from './helpers/dynamodb-emulator';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:NomadRestart-Restart';
const execution = (n: number) =>
  `arn:aws:states:us-east-1:123456789012:execution:NomadRestart-Restart:run-${n}`;

/** A question of execution `n`, parked as the ask step parks one. */
const question = (n: number, over: Partial<Approval> = {}): Approval =>
  parkedQuestion({ executionId: execution(n), taskToken: `token-${n}`, createdAt: 1000 + n, ...over });

const decision = (who: string, answer = 'yes'): ApprovalDecision => ({
  decisionId: `d-${who}`,
  answer,
  answeredBy: who,
  via: 'slack',
  decidedAt: 2000,
});

/** One emulator for the file; each test gets a fresh approvals table. */
const emulated = emulatedTable('ApprovalsTable');

describe('DynamoDbApprovalStore on a DynamoDB emulator', () => {
  it('lets exactly one of many racing answers decide a question; the others read who did', async () => {
    // Arrange: one client per answerer, as separate endpoint invocations would have.
    const q = question(1);
    await new DynamoDbApprovalStore(emulated.db.client, emulated.table).put(q);
    const answerers = Array.from({ length: 6 }, (_, i) => ({
      who: `user-${i}`,
      store: new DynamoDbApprovalStore(emulated.db.newClient(), emulated.table),
    }));

    // Act
    const results = await Promise.all(answerers.map((a) => a.store.decide(q.approvalId, decision(a.who))));

    // Assert
    const winners = results.filter((r) => r.won);
    expect(winners).toHaveLength(1);
    const winner = winners[0]?.won === true ? winners[0].approval.decision?.answeredBy : undefined;
    for (const lost of results.filter((r) => !r.won)) {
      expect(lost).toEqual({ won: false, decision: expect.objectContaining({ answeredBy: winner }) });
    }
    expect(
      (await new DynamoDbApprovalStore(emulated.db.client, emulated.table).get(q.approvalId)).decision
        ?.answeredBy,
    ).toBe(winner);
  });

  it('refuses a decision for an unknown id', async () => {
    // Arrange
    const store = new DynamoDbApprovalStore(emulated.db.client, emulated.table);

    // Act
    const result = store.decide(newApprovalId(), decision('alice'));

    // Assert
    await expect(result).rejects.toBeInstanceOf(StoreItemNotFoundError);
  });

  it('lists only undecided questions of a state machine, oldest first, without task tokens', async () => {
    // Arrange
    const store = new DynamoDbApprovalStore(emulated.db.client, emulated.table);
    const [a, b, c] = [question(3), question(1), question(2)];
    for (const q of [a, b, c]) await store.put(q);
    await store.decide(c.approvalId, decision('bob'));

    // Act
    const pending = await store.listPending({ stateMachineArn: MACHINE });

    // Assert
    expect(pending.map((p) => p.approvalId)).toEqual([b.approvalId, a.approvalId]);
    expect(pending[0]).toEqual({ ...(({ taskToken: _t, ...rest }) => rest)(b), stateMachineArn: MACHINE });
    expect(JSON.stringify(pending)).not.toContain('token-');
  });

  it('reopens a withdrawn decision and settles only its own', async () => {
    // Arrange
    const store = new DynamoDbApprovalStore(emulated.db.client, emulated.table);
    const q = question(1);
    await store.put(q);
    await store.decide(q.approvalId, decision('alice'));

    // Act
    await store.settleDecision(q.approvalId, 'd-someone-else', 'delivered');
    const unsettled = await store.get(q.approvalId);
    await store.withdrawDecision(q.approvalId, 'd-alice');
    const reopened = await store.listPending({ stateMachineArn: MACHINE });
    const again = await store.decide(q.approvalId, decision('bob', 'no'));
    await store.settleDecision(q.approvalId, 'd-bob', 'run-finished');

    // Assert
    expect(unsettled.decision?.outcome).toBeUndefined();
    expect(reopened.map((p) => p.approvalId)).toEqual([q.approvalId]);
    expect(again.won).toBe(true);
    expect((await store.get(q.approvalId)).decision).toEqual({
      ...decision('bob', 'no'),
      outcome: 'run-finished',
    });
  });

  it('records one message per channel without losing another', async () => {
    // Arrange
    const store = new DynamoDbApprovalStore(emulated.db.client, emulated.table);
    const q = question(1);
    await store.put(q);

    // Act
    await Promise.all([
      store.recordMessage(q.approvalId, 'slack', { channel: 'C1', ts: '1.1', shows: 'asked' }),
      store.recordMessage(q.approvalId, 'other', { channel: 'C2', ts: '2.2', shows: 'asked' }),
    ]);

    // Assert
    expect((await store.get(q.approvalId)).messages).toEqual({
      slack: { channel: 'C1', ts: '1.1', shows: 'asked' },
      other: { channel: 'C2', ts: '2.2', shows: 'asked' },
    });
    await expect(
      store.recordMessage(newApprovalId(), 'slack', { channel: 'C1', ts: '1', shows: 'asked' }),
    ).rejects.toBeInstanceOf(StoreItemNotFoundError);
  });
});

describe('DynamoDbReplayGuard on a DynamoDB emulator', () => {
  it('lets one of two racing copies of a request through', async () => {
    // Arrange
    const guards = [
      new DynamoDbReplayGuard(emulated.db.newClient(), emulated.table),
      new DynamoDbReplayGuard(emulated.db.newClient(), emulated.table),
    ];

    // Act
    const seen = await Promise.all(guards.map((g) => g.firstSighting('v0=abc', 999_999_999)));
    const later = await guards[0]?.firstSighting('v0=abc', 999_999_999);
    const other = await guards[0]?.firstSighting('v0=def', 999_999_999);

    // Assert
    expect(seen.filter(Boolean)).toHaveLength(1);
    expect(later).toBe(false);
    expect(other).toBe(true);
  });
});
