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
import { runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import { harnessPerTest, simpleJob } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';

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
});
