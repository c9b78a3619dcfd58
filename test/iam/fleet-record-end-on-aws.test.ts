/**
 * Scenario: the `end-fleet-record` function (lambdas/end-fleet-record.ts), invoked as EventBridge
 * invokes it for a fleet execution stopped in the console, with no Nomad settings but those the
 * template gives it: it reads the Nomad token through the real Secrets Manager client (served on
 * 127.0.0.1) on the secret's ARN, the read checked against its role (emulated-aws.ts), and ends the
 * fleet's provisional record on an agent that answers only the README fleet policy's token.
 */
import { handler } from '../../lambdas/end-fleet-record';
import type { HistoryPlace } from '../../lib/history/run-history';
import { NomadClient } from '../../lib/nomad/client';
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmeFleetPolicyToken } from '../fixtures/readme-policy';
import { provisionalRecord } from '../fixtures/run-records';
import { lambdaContext } from '../lambdas/helpers/fixtures';
import { harnessPerTest } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';
import { secretsManagerServing, startFakeJsonServices } from './helpers/fake-json-services';
import { asFunction } from './helpers/iam-check';
import { withEnvironment } from './helpers/with-environment';

const aws = useEmulatedAws();
const harness = harnessPerTest();
const FLEETS: HistoryPlace = { namespace: 'default', fleets: true };
const EXECUTION = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestartStack-Fleet:run-0001';

describe('end-fleet-record on AWS, as its role allows', () => {
  it("reads the Nomad token on its secret's ARN and ends the aborted fleet's record", async () => {
    // Arrange
    const h = await harness.start({
      jobs: [],
      acl: {
        enabled: true,
        tokens: [readmeFleetPolicyToken(['default']), { secret: MANAGEMENT_TOKEN, management: true }],
      },
    });
    const history = new NomadRunHistory(
      NomadClient.create({ address: h.sim.address, token: MANAGEMENT_TOKEN }),
    );
    await history.put(FLEETS, provisionalRecord(1, { kind: 'fleet', jobId: '' }));
    const tokenArn = aws.check.functionEnvironment('end-fleet-record')['NOMAD_TOKEN_SECRET_ARN'];
    if (tokenArn === undefined)
      throw new Error('the template gives end-fleet-record no NOMAD_TOKEN_SECRET_ARN');
    const secrets = await startFakeJsonServices(secretsManagerServing({ [tokenArn]: OPERATOR_TOKEN }));
    const env = {
      NOMAD_ADDR: h.sim.address,
      NOMAD_TOKEN_SECRET_ARN: tokenArn,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    };
    const from = aws.ledger.calls.length;

    // Act
    await withEnvironment(env, () =>
      asFunction('end-fleet-record', () =>
        handler(
          { detail: { executionArn: EXECUTION, status: 'ABORTED', input: '{"namespace":"default"}' } },
          lambdaContext(),
        ),
      ),
    ).finally(() => secrets.close());

    // Assert
    expect(aws.ledger.denied()).toEqual([]);
    const reads = aws.ledger.calls
      .slice(from)
      .map((c) => [c.functionName, c.request.action, c.request.resource]);
    expect(reads).toEqual([['end-fleet-record', 'secretsmanager:GetSecretValue', tokenArn]]);
    expect((await history.read(FLEETS)).records).toEqual([
      expect.objectContaining({ runId: 'run-0001', outcome: 'aborted' }),
    ]);
  });
});
