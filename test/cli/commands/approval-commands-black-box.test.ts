/**
 * Scenario: the real `nomad-restart questions`, `approve` and `deny` (the bin shim, as `npx` runs
 * it) in a subprocess, nothing mocked inside the command: the approvals table on a DynamoDB
 * emulator (`AWS_ENDPOINT_URL_DYNAMODB`) and Step Functions on a fake endpoint
 * (`AWS_ENDPOINT_URL_SFN`), both on 127.0.0.1, with fake credentials. `questions` lists the parked
 * question without its task token; `approve <id> 10s` sends one SendTaskSuccess and records the
 * decision; a `deny` after it is told who decided; without a region the command says so.
 */
import { runCli } from '../../e2e/helpers/run-cli';
import { emulatedApprovalsTable, parkedOn } from '../../engines/aws/helpers/chat-fixtures';
import { execArn } from '../../engines/aws/helpers/fixtures';
import { localAwsEnv, sfnEndpointPerTest } from '../../engines/aws/helpers/sfn-endpoint';

const RUN = execArn('run-1');

const emulated = emulatedApprovalsTable();
const sfn = sfnEndpointPerTest();

/** The command's AWS environment: the two endpoints, fake credentials, nothing from the machine. */
const awsEnv = (): NodeJS.ProcessEnv =>
  localAwsEnv(
    {
      NOMAD_RESTART_APPROVALS_TABLE: emulated.table,
      AWS_ENDPOINT_URL_DYNAMODB: emulated.db.endpoint,
      AWS_ENDPOINT_URL_SFN: sfn.endpoint.url,
    },
    'us-east-1',
  );

describe('nomad-restart questions, approve and deny against endpoints on 127.0.0.1', () => {
  it('lists a parked question, answers it once, and tells a later answer who decided', async () => {
    // Arrange
    const question = parkedOn(RUN, 'task-token-secret-1', {}, 60);
    await emulated.store.put(question);

    // Act
    const listed = await runCli(['questions'], awsEnv());
    const approved = await runCli(['approve', question.approvalId, '10s'], awsEnv());
    const denied = await runCli(['deny', question.approvalId], awsEnv());

    // Assert
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[1]).toMatch(
      new RegExp(
        `^${question.approvalId}  example +default +Proceed with the next batch\\? .+ +1m\\d?s +${RUN}$`,
      ),
    );
    expect(listed.stdout).not.toContain('task-token-secret-1');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(
      new RegExp(`^Question "${question.approvalId}" .+ answered "10s" at .+ \\(terminal\\)\\.\\n$`),
    );
    expect(
      sfn.fake
        .received('SendTaskSuccess')
        .map((i) => [i['taskToken'], JSON.parse(String(i['output'])).answer]),
    ).toEqual([['task-token-secret-1', '10s']]);
    expect((await emulated.store.get(question.approvalId)).decision).toMatchObject({
      answer: '10s',
      via: 'terminal',
      outcome: 'delivered',
    });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/was already decided: .+ answered "10s" at .+ \(terminal\)\.\n$/);
    expect(sfn.fake.received('SendTaskSuccess')).toHaveLength(1);
  });

  it('says which variable to set when no region is configured, and reads nothing', async () => {
    // Arrange
    const { AWS_REGION: _region, ...withoutRegion } = awsEnv();

    // Act
    const result = await runCli(['questions'], withoutRegion);

    // Assert
    expect(result.stderr).toBe(
      `No AWS region is configured: set AWS_REGION to the region of the approvals table "${emulated.table}"\n`,
    );
    expect(result.code).toBe(1);
  });
});
