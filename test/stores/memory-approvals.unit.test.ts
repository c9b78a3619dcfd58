/**
 * The in-memory approval store and replay guard (local runs, the endpoint run in-process): the
 * same one-decision and listing rules as the DynamoDB ones, which the emulated tests check.
 */
import {
  MemoryApprovalStore,
  MemoryReplayGuard,
  newApprovalId,
  StoreItemNotFoundError,
} from '../../lib/stores';

const question = (n: number) => ({
  approvalId: newApprovalId(),
  executionId: `exec-${n}`,
  taskToken: `token-${n}`,
  kind: 'proceed',
  prompt: 'Proceed with the next batch? [Y/n]',
  summary: '',
  jobId: 'web',
  namespace: 'default',
  createdAt: 10 - n,
  expiresAt: 100,
  stateMachineArn: 'machine',
});
const decision = (who: string) => ({
  decisionId: who,
  answer: 'yes',
  answeredBy: who,
  via: 'terminal' as const,
  decidedAt: 5,
});

describe('MemoryApprovalStore', () => {
  it('takes the first decision only and lists what is still pending', async () => {
    // Arrange
    const store = new MemoryApprovalStore();
    const [a, b] = [question(1), question(2)];
    await store.put(a);
    await store.put(b);

    // Act
    const first = await store.decide(a.approvalId, decision('alice'));
    const second = await store.decide(a.approvalId, decision('bob'));
    const pending = await store.listPending({ stateMachineArn: 'machine' });

    // Assert
    expect(first.won).toBe(true);
    expect(second).toEqual({ won: false, decision: decision('alice') });
    expect(pending.map((p) => p.approvalId)).toEqual([b.approvalId]);
    expect(pending[0]).not.toHaveProperty('taskToken');
  });

  it('reopens a question whose decision is withdrawn by its maker only', async () => {
    // Arrange
    const store = new MemoryApprovalStore();
    const q = question(1);
    await store.put(q);
    await store.decide(q.approvalId, decision('alice'));

    // Act
    await store.withdrawDecision(q.approvalId, 'bob');
    const kept = (await store.get(q.approvalId)).decision;
    await store.withdrawDecision(q.approvalId, 'alice');

    // Assert
    expect(kept?.answeredBy).toBe('alice');
    expect((await store.get(q.approvalId)).decision).toBeUndefined();
  });

  it('points a question asked again at the new token and opens it, keeping its chat message', async () => {
    // Arrange
    const store = new MemoryApprovalStore();
    const q = question(1);
    await store.put(q);
    await store.recordMessage(q.approvalId, 'slack', { channel: 'C1', ts: '1', shows: 'asked' });
    await store.decide(q.approvalId, decision('alice'));

    // Act
    await store.reask(q.approvalId, 'token-retried');

    // Assert
    const reasked = await store.get(q.approvalId);
    expect(reasked.taskToken).toBe('token-retried');
    expect(reasked.decision).toBeUndefined();
    expect(reasked.messages?.['slack']?.ts).toBe('1');
    expect((await store.listAllPending()).map((p) => p.approvalId)).toEqual([q.approvalId]);
  });

  it('fails to decide an unknown id', async () => {
    // Act
    const result = new MemoryApprovalStore().decide(newApprovalId(), decision('alice'));

    // Assert
    await expect(result).rejects.toBeInstanceOf(StoreItemNotFoundError);
  });
});

describe('MemoryReplayGuard', () => {
  it('refuses a key seen before until it expires', async () => {
    // Arrange
    let now = 100;
    const guard = new MemoryReplayGuard(() => now);

    // Act
    const first = await guard.firstSighting('sig', 400);
    const replay = await guard.firstSighting('sig', 400);
    now = 401;
    const afterExpiry = await guard.firstSighting('sig', 700);

    // Assert
    expect([first, replay, afterExpiry]).toEqual([true, false, true]);
  });
});
