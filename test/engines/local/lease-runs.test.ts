/**
 * Scenario: a run outlives its lock's lease and keeps its job. The run's stores are AWS's (on
 * emulators, every call checked against its function's role); the engine's lock has a 300 s
 * lease, and a sweeper deletes every lock item whose `expiresAt` has passed on the simulator's
 * clock before each step, as DynamoDB's TTL may at any moment. The
 * first batch's replacement takes 1,000 simulated seconds to start, watched in slices of about 80
 * (a slice is far shorter than the lease, as on AWS, so a loaded machine's delays do not matter):
 * the await outlasts the lease three times over. Every slice renews the lease, so the item is
 * never swept, the run restarts both batches and exits 0 — where a lease renewed only before each
 * batch would be swept mid-await and the run stopped at its next safe point, the job lost.
 */
import { DeleteItemCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { DEFAULT_SAFETY_MARGIN_MS } from '../../../lambdas/private/deadline';
import { restartOptions } from '../../fixtures/restart-options';
import { useEmulatedAws } from '../../iam/helpers/emulated-aws';
import { type Harness, simpleJob, startHarness, waitAllRunning } from '../../steps/helpers/harness';
import { runWorkflow } from './helpers/workflow-harness';

const LEASE_SECONDS = 300;
const aws = useEmulatedAws();
const envBefore = process.env['LOCK_TTL_SECONDS'];
let h: Harness | undefined;

beforeAll(() => {
  process.env['LOCK_TTL_SECONDS'] = String(LEASE_SECONDS);
});
afterAll(() => {
  if (envBefore === undefined) delete process.env['LOCK_TTL_SECONDS'];
  else process.env['LOCK_TTL_SECONDS'] = envBefore;
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Deletes the lock items whose lease ended by `nowMs`, as DynamoDB's TTL would; answers how many. */
async function sweepExpired(nowMs: number): Promise<number> {
  const dynamodb = new DynamoDBClient({});
  try {
    const table = aws.lockTable;
    const { Items = [] } = await dynamodb.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
    const expired = Items.filter(
      (item) => Number(item['expiresAt']?.N ?? Number.POSITIVE_INFINITY) * 1000 < nowMs,
    );
    for (const item of expired)
      await dynamodb.send(
        new DeleteItemCommand({ TableName: table, Key: { lockKey: item['lockKey'] ?? { S: '' } } }),
      );
    return expired.length;
  } finally {
    dynamodb.destroy();
  }
}

describe('a run that outlives its lease', () => {
  it('keeps its job through an await three times the lease: every slice renews it', async () => {
    // Arrange: replacements start 200 simulated seconds after they are placed.
    h = await startHarness({ jobs: [simpleJob('web', 'service', 2)] }, { allocStartMs: 1_000_000 });
    const harness = h;
    await waitAllRunning(harness, 'web', 2);
    const startedAt = harness.now();
    let swept = 0;
    let slices = 0;

    // Act
    const run = await runWorkflow(
      harness,
      restartOptions('web', { reschedule: true, batchSize: { value: 1, percent: false } }),
      {
        now: () => harness.now(),
        // A slice watches for about 80 simulated seconds (0.8 s at the harness's 1:100, after the
        // handlers' safety margin), well under the lease, as a 15-minute slice is under 24 hours.
        invocationBudgetMs: DEFAULT_SAFETY_MARGIN_MS + 800,
        interceptInvocation: async (state, invoke) => {
          if (state === 'Await batch') slices += 1;
          swept += await sweepExpired(harness.now());
          return invoke();
        },
      },
    );

    // Assert
    expect(run.exitCode).toBe(0);
    expect(run.errors).toEqual([]);
    expect(swept).toBe(0);
    expect(harness.now() - startedAt).toBeGreaterThan(3 * LEASE_SECONDS * 1000);
    expect(slices).toBeGreaterThan(3);
  });
});
