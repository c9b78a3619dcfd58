/**
 * Scenario: one full run per use, with the handlers on the AWS stores (s3rver, dynalite) and every
 * SDK call checked against the calling function's role in the synthesized template: a restart
 * from a terminal (the command's options), one started from the console (a raw JSON input), and
 * a scheduled maintenance run whose window ends between batches (its carry-over document is
 * written for the next window, then read by the next run, which finishes the job). A call AWS
 * would deny fails the test with the evaluator's explanation (emulated-aws.ts).
 *
 * One more terminal restart runs on an ACL-enabled agent with the handlers given no Nomad
 * settings: each resolves them from the environment the template gives it, reading the token
 * through the real Secrets Manager client (served on 127.0.0.1, fake-json-services.ts), each read
 * checked against its role. A gated restart of a job with a Consul service reads the Consul token
 * the same way, from the secret the template gives the functions that read Consul.
 */

import type { InvocationInterceptor } from '../../lib/engines/local/engine';
import { FlowStates, TaskStates } from '../../lib/workflow/state-names';
import { runWorkflow, runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { consulJob } from '../steps/health/helpers/consul-fixtures';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';
import { secretsManagerServing, startFakeJsonServices } from './helpers/fake-json-services';
import { withEnvironment } from './helpers/with-environment';

const aws = useEmulatedAws();
const KEY = { namespace: 'default', jobId: 'web' };
const SCHEDULED = '2026-11-29T02:00:00.000Z';

const harness = harnessPerTest();

async function cluster(count: number): Promise<Harness> {
  return await harness.startRunning(simpleJob('web', 'service', count));
}

/** The functions that made calls in this test, each with the IAM actions it used. */
function actionsByFunction(from: number): Record<string, string[]> {
  const used: Record<string, Set<string>> = {};
  for (const c of aws.ledger.calls.slice(from)) {
    used[c.functionName] = (used[c.functionName] ?? new Set()).add(c.request.action);
  }
  return Object.fromEntries(Object.entries(used).map(([fn, actions]) => [fn, [...actions].sort()]));
}

describe('each use, on the AWS stores with IAM enforced', () => {
  it('a terminal restart succeeds, releases the lock and tags the run for expiry', async () => {
    // Arrange
    const target = await cluster(4);
    const from = aws.ledger.calls.length;

    // Act
    const run = await runWorkflow(target, restartOptions('web', { batchSize: { value: 2, percent: false } }));

    // Assert
    expect(run.exitCode).toBe(0);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
    expect(actionsByFunction(from)['release-lock']).toEqual(
      expect.arrayContaining(['dynamodb:DeleteItem', 's3:ListBucket', 's3:PutObjectTagging']),
    );
  });

  it('a console execution with a raw JSON input succeeds', async () => {
    // Arrange
    const target = await cluster(3);

    // Act
    const run = await runWorkflowInput(target, { job: 'web', batchSize: '50%', onError: 'fail', yes: true });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.exitCode).toBe(0);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  });

  it('a scheduled run stops at its window end and the next one finishes the rest from the carry-over', async () => {
    // Arrange: 4 allocations, 2 per batch; 2 h pass during the first batch of a 1 h window.
    const target = await cluster(4);
    let now = Date.parse(SCHEDULED);
    const jumpAfterFirstDecide: InvocationInterceptor = async (state, invoke) => {
      const result = await invoke();
      if (state === TaskStates.decide && now === Date.parse(SCHEDULED)) now += 2 * 3600_000;
      return result;
    };
    const input = {
      job: 'web',
      batchSize: '2',
      yes: true,
      trigger: 'schedule' as const,
      scheduleName: 'weekly-web',
    };
    const from = aws.ledger.calls.length;

    // Act
    const first = await runWorkflowInput(
      target,
      { ...input, scheduledTime: SCHEDULED, windowDuration: '1h', resumeNextWindow: true },
      { now: () => now, interceptInvocation: jumpAfterFirstDecide },
    );
    const nextWeek = '2026-12-06T02:00:00.000Z';
    const second = await runWorkflowInput(
      target,
      { ...input, scheduledTime: nextWeek, windowDuration: '1h', resumeNextWindow: true },
      { now: () => Date.parse(nextWeek) },
    );

    // Assert
    expect(first.entered.at(-1)).toBe(FlowStates.stoppedAtWindowEnd);
    expect(second.exitCode).toBe(0);
    expect(second.result.output).toMatchObject({
      outcome: 'succeeded',
      allocations: { planned: 2, restarted: 2, skipped: { alreadyRestarted: 2 } },
    });
    const carryOver = aws.ledger.calls
      .slice(from)
      .filter((c) => c.request.resource.includes('/maintenance/'))
      .map((c) => `${c.functionName} ${c.request.action}`);
    expect(carryOver).toEqual(
      expect.arrayContaining(['check-deployments s3:PutObject', 'plan s3:GetObject']),
    );
  });

  it('a terminal restart on an ACL-enabled agent, each handler reading its Nomad token from Secrets Manager', async () => {
    // Arrange: the agent answers only the token the secret holds; the handlers get no Nomad
    // settings but their function's environment (the agent's address for the template's).
    const token = 'nomad-acl-token-from-the-secret';
    const h = await harness.start(
      {
        jobs: [simpleJob('web', 'service', 2)],
        acl: { enabled: true, tokens: [{ secret: token, management: true }] },
      },
      { token },
    );
    await waitAllRunning(h, 'web', 2);
    const tokenArn = aws.check.functionEnvironment('plan')['NOMAD_TOKEN_SECRET_ARN'];
    if (tokenArn === undefined) throw new Error('the template gives Plan no NOMAD_TOKEN_SECRET_ARN');
    const secrets = await startFakeJsonServices(secretsManagerServing({ [tokenArn]: token }));
    const env = {
      NOMAD_ADDR: h.sim.address,
      NOMAD_TOKEN_SECRET_ARN: tokenArn,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    };
    const from = aws.ledger.calls.length;

    // Act
    const run = await withEnvironment(env, () =>
      runWorkflow(h as Harness, restartOptions('web'), { nomadFromEnvironment: true }),
    ).finally(() => secrets.close());

    // Assert: the run needed the token; each function read it once, on the secret's ARN.
    expect(run.exitCode).toBe(0);
    const reads = aws.ledger.calls
      .slice(from)
      .filter((c) => c.request.action === 'secretsmanager:GetSecretValue');
    expect(reads.map((c) => c.request.resource)).toEqual(reads.map(() => tokenArn));
    const readers = reads.map((c) => c.functionName);
    expect(new Set(readers).size).toBe(readers.length);
    expect(readers).toEqual(expect.arrayContaining(['plan', 'lock-job', 'restart-batch']));
    expect(secrets.called).toHaveLength(readers.length);
  });

  it('a gated restart of a Consul service, the functions that read Consul taking its token from Secrets Manager', async () => {
    // Arrange: Consul answers only the token its secret holds; only plan and the health wait get
    // its address and the secret's ARN from the template.
    const h = await harness.startRunning(consulJob('web', 1));
    const consulToken = 'consul-acl-token-from-the-secret';
    h.sim.consul.control.configureAcl({ enabled: true, tokens: [{ secret: consulToken, management: true }] });
    const readers = ['plan', 'await-health'];
    const arns = readers.map((fn) => aws.check.functionEnvironment(fn)['CONSUL_TOKEN_SECRET_ARN']);
    const withConsul = ['lock-job', 'restart-batch', 'decide'].filter(
      (fn) => aws.check.functionEnvironment(fn)['CONSUL_TOKEN_SECRET_ARN'] !== undefined,
    );
    const arn = arns[0];
    if (arn === undefined) throw new Error('the template gives Plan no CONSUL_TOKEN_SECRET_ARN');
    const secrets = await startFakeJsonServices(secretsManagerServing({ [arn]: consulToken }));
    const env = {
      CONSUL_HTTP_ADDR: h.sim.consul.address,
      CONSUL_TOKEN_SECRET_ARN: arn,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    };
    const from = aws.ledger.calls.length;
    const gate = { minHealthyTimeNs: 100e6, healthyDeadlineNs: 20e9 };

    // Act
    const run = await withEnvironment(env, () =>
      runWorkflow(h as Harness, restartOptions('web', { waitHealthy: gate })),
    ).finally(() => secrets.close());

    // Assert: Consul answered (a refused token stops the run); the secret was read on its ARN by
    // the functions that read Consul, as their roles allow (in one process they share one cache).
    expect(run.exitCode).toBe(0);
    expect(arns).toEqual([arn, arn]);
    expect(withConsul).toEqual([]);
    expect(h.sim.consul.control.requestLog().every((r) => r.status === 200)).toBe(true);
    const reads = aws.ledger.calls
      .slice(from)
      .filter((c) => c.request.action === 'secretsmanager:GetSecretValue' && c.request.resource === arn);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => readers.includes(c.functionName))).toBe(true);
  });
});
