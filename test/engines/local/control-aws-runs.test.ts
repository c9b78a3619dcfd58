/**
 * Run control on AWS's stores (the lock and approvals tables on the DynamoDB emulator, the plan
 * store on S3's, every call checked against its function's role), through the local engine as an
 * execution runs: the request is recorded on the lock table's item (as the webhook, a Slack button
 * or `nomad-restart pause <ARN>` record it), the second batch's safe point parks the pause question
 * in the approvals store like any other question, and the one-decision machinery answers it, as
 * `nomad-restart approve`, a chat button or the webhook would. Nomad with ACLs on and the README's
 * policy. Batches take a second on the steps' clock: a run reads its request at most once a second.
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { ControlRequest } from '../../../lib/control/requests';
import type { InvocationInterceptor } from '../../../lib/engines/local/engine';
import { LocalTaskTokenCallbacks } from '../../../lib/engines/local/task-token-callbacks';
import type { RunSummary } from '../../../lib/restart/run-summary';
import { approvalStoreFromEnv, jobLockFromEnv } from '../../../lib/stores/from-env';
import { REPLAY_KEY_PREFIX } from '../../../lib/stores/replay-guard';
import { TaskStates } from '../../../lib/workflow/state-names';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { useEmulatedAws } from '../../iam/helpers/emulated-aws';
import { type Harness, harnessPerTest, simpleJob } from '../../steps/helpers/harness';
import { batchClock, SECOND_BATCHES_MS } from './helpers/batch-clock';
import { decideWhenWaiting } from './helpers/task-token-answers';
import { runWorkflow } from './helpers/workflow-harness';

const aws = useEmulatedAws();
const harness = harnessPerTest();
const RESTART = 'PUT /v1/client/allocation/:id/restart';
const KEY = { namespace: 'default', jobId: 'web' };
const FROM_SLACK = { requestedBy: 'U0AAAAAAA', via: 'slack' } as const;

/** Three running allocations of `web`, ACLs on with the README's policy. */
function cluster(): Promise<Harness> {
  return harness.startRunning(
    simpleJob('web', 'service', 3),
    { token: OPERATOR_TOKEN },
    { acl: readmePolicyAcl() },
  );
}

/** The questions parked in the approvals table (read outside any function). */
async function parkedQuestions(): Promise<string[]> {
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

/** Records `verb` for the run holding `web` on the lock table, as a requester outside the run does. */
async function requestOnLockTable(verb: ControlRequest['verb']): Promise<void> {
  const runId = await aws.lockHolder(KEY);
  if (runId === undefined) throw new Error('nobody holds web');
  const recorded = await jobLockFromEnv().requestControl(KEY, runId, { verb, ...FROM_SLACK, at: Date.now() });
  if (!recorded) throw new Error('the request was not recorded');
}

/** Resolves once the run waits on a task token. */

/** Answers the parked question `reply` through the one-decision machinery, as Slack user U0BBBBBBB. */
async function answer(callbacks: LocalTaskTokenCallbacks, approvalId: string, reply: string): Promise<void> {
  const outcome = await decideWhenWaiting(callbacks, {
    approvalId,
    reply,
    answeredBy: 'U0BBBBBBB',
    via: 'slack',
  });
  expect(outcome.kind).toBe('decided');
}

/** The run, with `verb` recorded before the second batch's safe point and its question answered `reply`. */
async function runControlled(h: Harness, verb: ControlRequest['verb'], reply?: string) {
  const callbacks = new LocalTaskTokenCallbacks();
  const prompts: string[] = [];
  let answered = Promise.resolve();
  let guards = 0;
  const intercept: InvocationInterceptor = async (state, invoke) => {
    if (state === TaskStates.checkDeployments && ++guards === 2) await requestOnLockTable(verb);
    const result = await invoke();
    if (state === TaskStates.ask && reply !== undefined) {
      const [id] = await parkedQuestions();
      if (id === undefined) throw new Error('Ask question parked no question');
      prompts.push((await approvalStoreFromEnv().get(id)).prompt);
      answered = answer(callbacks, id, reply);
    }
    return result;
  };
  const run = await runWorkflow(h, restartOptions('web'), {
    token: OPERATOR_TOKEN,
    taskTokenCallbacks: callbacks,
    ...batchClock(SECOND_BATCHES_MS, intercept),
  });
  await answered;
  return { run, prompts, summary: run.result.output as RunSummary };
}

describe('run control on the AWS stores, IAM enforced', () => {
  it('parks the pause question in the approvals store; its yes resumes the run with the next batch', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const { run, prompts, summary } = await runControlled(h, 'pause', 'y');

    // Assert
    expect(prompts).toEqual([
      expect.stringMatching(/^Paused by U0AAAAAAA \(Slack\) at \S+\.\n\s+Resume the restart\? \[y\/N\]$/),
    ]);
    expect(run.events).toContainEqual(expect.objectContaining({ type: 'resumed', resumedBy: 'U0BBBBBBB' }));
    expect(summary.outcome).toBe('succeeded');
    expect(h.sim.control.counters()[RESTART]).toBe(3);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  });

  it('ends canceled on a "no" to the pause question, naming who said it, the lock released', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const { summary } = await runControlled(h, 'pause', 'n');

    // Assert
    expect(summary).toMatchObject({ outcome: 'canceled', stoppedBy: 'U0BBBBBBB' });
    expect(h.sim.control.counters()[RESTART]).toBe(1);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  });

  it('stops at the safe point on a stop recorded on the lock table', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const { run, summary } = await runControlled(h, 'stop');

    // Assert
    expect(run.events.map((e) => e.type)).toEqual(expect.arrayContaining(['stopped', 'canceled']));
    expect(summary).toMatchObject({ outcome: 'canceled', stoppedBy: 'U0AAAAAAA (Slack)' });
    expect(h.sim.control.counters()[RESTART]).toBe(1);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  });
});
