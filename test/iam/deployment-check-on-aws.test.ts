/**
 * Scenario: the execution `nomad-restart check` starts, `{"deploymentCheck": true}`, on the AWS
 * stores (s3rver, dynalite) with every SDK call checked against the calling function's role in the
 * synthesized template. The ask function parks the check's question in the approvals table under
 * its own job ID, its lease renewal finds no lock of that job (and takes none), the answer ends
 * the execution; no other function runs. A call AWS would deny fails the test with the
 * evaluator's explanation (emulated-aws.ts).
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { RestartInput } from '../../lib/restart/input';
import { DEPLOYMENT_CHECK_JOB } from '../../lib/workflow/deployment-check';
import type { ReachReport } from '../../lib/workflow/deployment-check-reach';
import { TaskStates } from '../../lib/workflow/state-names';
import { runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmeConsulPolicyToken, readmePolicyAcl } from '../fixtures/readme-policy';
import { consulJob } from '../steps/health/helpers/consul-fixtures';
import { harnessPerTest, simpleJob } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';
import { secretsManagerServing, startFakeJsonServices } from './helpers/fake-json-services';
import { withEnvironment } from './helpers/with-environment';

const aws = useEmulatedAws();
const harness = harnessPerTest();

describe('a deployment check, on the AWS stores with IAM enforced', () => {
  it('parks its question through the ask function, takes no lock, and ends with the answer', async () => {
    // Arrange
    const target = await harness.startRunning(simpleJob('web', 'service', 1));
    const from = aws.ledger.calls.length;

    // Act
    const run = await runWorkflowInput(target, { deploymentCheck: true } as unknown as RestartInput, {
      replies: ['yes'],
    });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    const calls = aws.ledger.calls.slice(from).map((c) => `${c.functionName} ${c.request.action}`);
    expect([...new Set(calls)].sort()).toEqual([
      'ask dynamodb:PutItem',
      'ask dynamodb:Query',
      'ask dynamodb:UpdateItem',
    ]);
    expect(await aws.lockHolder({ namespace: '', jobId: DEPLOYMENT_CHECK_JOB })).toBeUndefined();
    const { Items = [] } = await new DynamoDBClient({}).send(
      new ScanCommand({ TableName: aws.approvalsTable }),
    );
    expect(Items.map((item) => item['jobId']?.S)).toEqual([DEPLOYMENT_CHECK_JOB]);
  });

  it('reads the job it names through the plan function, its Nomad and Consul tokens from Secrets Manager', async () => {
    // Arrange: Nomad with the README policy and Consul with the README Consul policy, each
    // answering only the token its secret holds; the functions get no settings but their
    // function's environment, as on Lambda.
    const target = await harness.startRunning(
      consulJob('web', 1),
      { token: OPERATOR_TOKEN },
      { acl: readmePolicyAcl() },
    );
    const consulToken = 'consul-token-from-the-secret';
    target.sim.consul.control.configureAcl({ enabled: true, tokens: [readmeConsulPolicyToken(consulToken)] });
    const plan = aws.check.functionEnvironment('plan');
    const nomadArn = plan['NOMAD_TOKEN_SECRET_ARN'];
    const consulArn = plan['CONSUL_TOKEN_SECRET_ARN'];
    if (nomadArn === undefined || consulArn === undefined)
      throw new Error('the template gives Plan no NOMAD_TOKEN_SECRET_ARN or CONSUL_TOKEN_SECRET_ARN');
    const secrets = await startFakeJsonServices(
      secretsManagerServing({ [nomadArn]: OPERATOR_TOKEN, [consulArn]: consulToken }),
    );
    const env = {
      NOMAD_ADDR: target.sim.address,
      NOMAD_TOKEN_SECRET_ARN: nomadArn,
      CONSUL_HTTP_ADDR: target.sim.consul.address,
      CONSUL_TOKEN_SECRET_ARN: consulArn,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    };
    const from = aws.ledger.calls.length;

    // Act
    const run = await withEnvironment(env, () =>
      runWorkflowInput(target, { deploymentCheck: true, reach: { job: 'web' } } as unknown as RestartInput, {
        replies: ['yes'],
        nomadFromEnvironment: true,
      }),
    ).finally(() => secrets.close());

    // Assert: both answered the plan function, which read both secrets as its role allows.
    expect(run.result.status).toBe('SUCCEEDED');
    const exit = run.exits.find((e) => e.name === TaskStates.reachDeploymentCheck);
    const report = (exit?.output as { reached?: ReachReport } | undefined)?.reached;
    expect(report?.nomad).toEqual({
      reached: true,
      job: 'web',
      namespace: 'default',
      type: 'service',
      status: 'running',
      allocations: 1,
    });
    expect(report?.consul).toMatchObject({ reached: true, service: 'web-web' });
    const calls = aws.ledger.calls.slice(from);
    expect([...new Set(calls.map((c) => `${c.functionName} ${c.request.action}`))].sort()).toEqual([
      'ask dynamodb:PutItem',
      'ask dynamodb:Query',
      'ask dynamodb:UpdateItem',
      'plan secretsmanager:GetSecretValue',
    ]);
    const secretsRead = calls.filter((c) => c.request.action === 'secretsmanager:GetSecretValue');
    expect([...new Set(secretsRead.map((c) => c.request.resource))].sort()).toEqual(
      [consulArn, nomadArn].sort(),
    );
  });
});
