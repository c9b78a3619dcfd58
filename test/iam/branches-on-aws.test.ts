/**
 * Scenario: the AWS calls of branches no full run walks (a job another run holds, a dead run's
 * clean-up, a resumed execution, a question that timed out, a run's end described, the Nomad TLS
 * secret), each made as the function whose code makes it, through the same stores and clients,
 * with the keys that code uses, on the emulators with IAM enforced (emulated-aws.ts): a call the
 * role does not allow fails the test with the evaluator's explanation. The operation inventory
 * (operation-inventory.test.ts) names the calls still unwalked.
 */
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { closeOpenQuestions } from '../../lib/approvals/timeouts';
import type { Approval } from '../../lib/stores/approval-store';
import {
  approvalStoreFromEnv,
  jobLockFromEnv,
  planStoreFromEnv,
  runStatusFromEnv,
} from '../../lib/stores/from-env';
import { planKeys } from '../../lib/stores/plan-keys';
import { useEmulatedAws } from './helpers/emulated-aws';
import { type FakeJsonServices, startFakeJsonServices } from './helpers/fake-json-services';
import { asFunction } from './helpers/iam-check';

const aws = useEmulatedAws();
const KEY = { namespace: 'default', jobId: 'web' };
let sfn: FakeJsonServices;
let secrets: FakeJsonServices;

/** An execution of the template's state machine. */
const execution = (name: string) =>
  `${aws.check.stateMachineArn().replace(':stateMachine:', ':execution:')}:${name}`;

beforeAll(async () => {
  sfn = await startFakeJsonServices({
    'AWSStepFunctions.DescribeExecution': (i) => ({ executionArn: i['executionArn'], status: 'FAILED' }),
  });
  secrets = await startFakeJsonServices({
    'secretsmanager.GetSecretValue': (i) => ({ ARN: i['SecretId'], Name: 'nomad-tls', SecretString: '{}' }),
  });
  // The stores make their clients once per process: the endpoints are set before the first.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SFN: sfn.url,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
  });
});
afterAll(async () => {
  await sfn.close();
  await secrets.close();
});

/** A question Ask parked for `run` at `now` (ms). */
const questionOf = (approvalId: string, run: string, now: number): Approval => ({
  approvalId,
  executionId: run,
  taskToken: 'token-1',
  kind: 'proceed',
  prompt: 'Are you sure you want to restart the next batch? [Y/n]',
  summary: 'batch 1 of 2',
  jobId: 'web',
  namespace: 'default',
  createdAt: now / 1000,
  expiresAt: now / 1000 + 86_400,
});

/** The IAM actions `fn` was checked for since call `from`, each allowed (a denial fails the test). */
const actionsOf = (fn: string, from: number) =>
  aws.ledger.calls
    .slice(from)
    .filter((c) => c.functionName === fn)
    .map((c) => c.request.action);

describe('branches no full run walks, as AWS authorizes them', () => {
  it('Lock job reads the holder back, asks Step Functions whether it still runs, and gives its own lock back', async () => {
    // Arrange: a run holds the job; Lock job of another run meets it.
    const holder = execution('holder');
    await asFunction('lock-job', () => jobLockFromEnv().acquire(KEY, { owner: holder, ttlSeconds: 60 }));
    const from = aws.ledger.calls.length;

    // Act
    await asFunction('lock-job', async () => {
      await jobLockFromEnv().held(KEY, holder);
      await runStatusFromEnv().status(holder);
      await jobLockFromEnv().release(KEY, holder);
    });

    // Assert
    expect(actionsOf('lock-job', from)).toEqual([
      'dynamodb:GetItem',
      'states:DescribeExecution',
      'dynamodb:DeleteItem',
    ]);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  });

  it('Resume run reads the lock of the run it continues, then extends its lease', async () => {
    // Arrange
    const run = execution('continued');
    await asFunction('lock-job', () => jobLockFromEnv().acquire(KEY, { owner: run, ttlSeconds: 60 }));
    const from = aws.ledger.calls.length;

    // Act: lambdas/resume-run.ts refuses a continuation whose run holds no lock, then renews it.
    const { holds, extended } = await asFunction('resume-run', async () => ({
      holds: await jobLockFromEnv().held(KEY, run),
      extended: await jobLockFromEnv().extend(KEY, {
        owner: run,
        ttlSeconds: 600,
        execution: execution('continued-2'),
      }),
    }));

    // Assert
    expect(holds).toBeDefined();
    expect(extended).toBeDefined();
    expect(await aws.lockHolder(KEY)).toBe(run);
    expect(actionsOf('resume-run', from)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  });

  it('Await health extends the lease of the run it waits for once the lease needs it', async () => {
    // Arrange: a run holds the job; its lease is renewed only when due (#41), so no full run this
    // short reaches the renewal lambdas/private/lease-middleware.ts makes after a health slice.
    const run = execution('waiting');
    await asFunction('lock-job', () => jobLockFromEnv().acquire(KEY, { owner: run, ttlSeconds: 60 }));
    const from = aws.ledger.calls.length;

    // Act: the renewal LockSteps.keepLease makes through the engine's lock.
    const extended = await asFunction('await-health', () =>
      jobLockFromEnv().extend(KEY, { owner: run, ttlSeconds: 600, execution: run }),
    );

    // Assert
    expect(extended).toBeDefined();
    expect(await aws.lockHolder(KEY)).toBe(run);
    expect(actionsOf('await-health', from)).toEqual(['dynamodb:UpdateItem']);
  });

  it("Ask points the question its first attempt parked at a retried attempt's task token", async () => {
    // Arrange: the first attempt parked the question, then failed before it returned.
    const run = execution('asked-twice');
    await asFunction('ask', () => approvalStoreFromEnv().put(questionOf('A-retried', run, Date.now())));
    const from = aws.ledger.calls.length;

    // Act: what lambdas/ask.ts does on the retried attempt.
    await asFunction('ask', () => approvalStoreFromEnv().reask('A-retried', 'token-2'));

    // Assert
    expect((await approvalStoreFromEnv().get('A-retried')).taskToken).toBe('token-2');
    expect(actionsOf('ask', from)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  });

  it.each(['approval-endpoint', 'notify-run-ended', 'release-stale-lock'])(
    '%s describes an execution of the state machine',
    async (fn) => {
      // Arrange
      const from = aws.ledger.calls.length;

      // Act
      const status = await asFunction(fn, () => runStatusFromEnv().status(execution('ended')));

      // Assert
      expect(status).toBe('FAILED');
      expect(actionsOf(fn, from)).toEqual(['states:DescribeExecution']);
    },
  );

  it.each([
    ['apply-answer', 'timeout'],
    ['release-stale-lock', 'run-ended'],
  ] as const)("%s closes the run's open question (%s)", async (fn, why) => {
    // Arrange: Ask parked a question for the run.
    const run = execution(`asked-${fn}`);
    const now = Date.parse('2026-12-07T02:00:00Z');
    const question = questionOf(`A-${fn}`, run, now);
    await asFunction('ask', () => approvalStoreFromEnv().put(question));
    const from = aws.ledger.calls.length;

    // Act: the call apply-answer.ts makes when the question timed out, and
    // release-stale-lock.ts makes for a dead run.
    const closed = await asFunction(fn, () =>
      closeOpenQuestions(approvalStoreFromEnv(), run, why, () => now),
    );

    // Assert
    expect(closed).toBe(1);
    expect(actionsOf(fn, from)).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
  });

  it.each(['apply-answer', 'release-stale-lock'])(
    '%s reads back a question someone answered while it was closing it',
    async (fn) => {
      // Arrange: closeOpenQuestions (lib/approvals/timeouts.ts) listed the question pending, then
      // a person answered it through the endpoint before this function's decide.
      const run = execution(`raced-${fn}`);
      const now = Date.parse('2026-12-07T02:00:00Z');
      const approvalId = `R-${fn}`;
      await asFunction('ask', () => approvalStoreFromEnv().put(questionOf(approvalId, run, now)));
      const answer = {
        decisionId: 'person-1',
        answer: 'yes',
        answeredBy: 'U123',
        via: 'slack',
        decidedAt: now / 1000,
      } as const;
      await asFunction('approval-endpoint', () => approvalStoreFromEnv().decide(approvalId, answer));
      const from = aws.ledger.calls.length;

      // Act: the decide closeOpenQuestions makes for each question it listed.
      const result = await asFunction(fn, () =>
        approvalStoreFromEnv().decide(approvalId, {
          decisionId: 'closing-1',
          answer: 'no',
          answeredBy: 'nobody (timed out)',
          via: 'timeout',
          decidedAt: now / 1000,
        }),
      );

      // Assert: the person's answer stands, read back as the function (its lost race).
      expect(result).toEqual({ won: false, decision: answer });
      expect(actionsOf(fn, from)).toEqual(['dynamodb:UpdateItem', 'dynamodb:GetItem']);
    },
  );

  it('Apply answer sets an over-long event list aside in the plan store', async () => {
    // Arrange: a timed-out question's closing events took the list past its budget.
    const run = execution('answered');
    const key = planKeys.asideEvents(run, 'request-1', 'events');
    const from = aws.ledger.calls.length;

    // Act: the write lambdas/private/state-budget-middleware.ts makes before cutting the list.
    await asFunction('apply-answer', () => planStoreFromEnv().put(key, [{ type: 'batch-started' }]));

    // Assert
    expect(actionsOf('apply-answer', from)).toEqual(['s3:PutObject']);
    expect(await asFunction('plan', () => planStoreFromEnv().get(key))).toEqual([{ type: 'batch-started' }]);
  });

  it('Resume run sets an over-long event list aside in the plan store', async () => {
    // Arrange: a continued execution's plan events past their budget.
    const run = execution('continued');
    const key = planKeys.asideEvents(run, 'request-1', 'planEvents');
    const from = aws.ledger.calls.length;

    // Act: the write lambdas/private/state-budget-middleware.ts makes before cutting the list.
    await asFunction('resume-run', () => planStoreFromEnv().put(key, [{ type: 'batch-started' }]));

    // Assert
    expect(actionsOf('resume-run', from)).toEqual(['s3:PutObject']);
    expect(await asFunction('plan', () => planStoreFromEnv().get(key))).toEqual([{ type: 'batch-started' }]);
  });

  it('Notify run ended reads the plan of the run that ended', async () => {
    // Arrange
    const run = execution('ended');
    await asFunction('plan', () => planStoreFromEnv().put(planKeys.plan(run), { jobId: 'web' }));
    const from = aws.ledger.calls.length;

    // Act
    const plan = await asFunction('notify-run-ended', () => planStoreFromEnv().get(planKeys.plan(run)));

    // Assert
    expect(plan).toEqual({ jobId: 'web' });
    expect(actionsOf('notify-run-ended', from)).toEqual(['s3:GetObject']);
  });

  it.each([
    'plan',
    'lock-job',
    'restart-batch',
    'trigger-evaluations',
    'await-batch',
    'await-health',
    'decide',
    'apply-answer',
    'finish',
    'release-stale-lock',
  ])('%s reads the Nomad TLS secret the template names', async (fn) => {
    // Arrange
    const arn = aws.check.functionEnvironment(fn)['NOMAD_TLS_SECRET_ARN'];
    if (arn === undefined) throw new Error(`the template gives ${fn} no NOMAD_TLS_SECRET_ARN`);
    const from = aws.ledger.calls.length;

    // Act
    const value = await asFunction(fn, () => new SecretsProvider().get(arn));

    // Assert
    expect(value).toBe('{}');
    expect(
      aws.ledger.calls.slice(from).map((c) => `${c.functionName} ${c.request.action} ${c.request.resource}`),
    ).toEqual([`${fn} secretsmanager:GetSecretValue ${arn}`]);
  });

  it.each(['approval-notifier', 'notify-run-ended'])(
    '%s reads the webhook signing secret the template names',
    async (fn) => {
      // Arrange
      const arn = aws.check.functionEnvironment(fn)[APPROVAL_ENV.webhookSecretArn];
      if (arn === undefined) throw new Error(`the template gives ${fn} no ${APPROVAL_ENV.webhookSecretArn}`);
      const from = aws.ledger.calls.length;

      // Act
      await asFunction(fn, () => new SecretsProvider().get(arn));

      // Assert
      expect(
        aws.ledger.calls
          .slice(from)
          .map((c) => `${c.functionName} ${c.request.action} ${c.request.resource}`),
      ).toEqual([`${fn} secretsmanager:GetSecretValue ${arn}`]);
    },
  );
});
