/**
 * The stack with chat-ops approvals (Slack, a signed webhook, an SNS topic): the endpoint's role
 * may only answer this state machine's tasks and read and write its table, secrets are referenced
 * by ARN and never inlined, the notifier follows the table's stream, the interactivity URL is an
 * output, the endpoint's public URL cannot take the account's whole concurrency, and cdk-nag has no
 * unacknowledged finding.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { NomadRestartStack, type SlackApprovalReferences } from '../../lib/constructs/nomad-restart-stack';
import { NomadRestartWorkflow } from '../../lib/constructs/nomad-restart-workflow';
import { questionRecordPatterns } from '../../lib/constructs/private/approvals-stream-filter';
import { stackPropsFromContext } from '../../lib/constructs/stack-context';
import { expectWatchedDeadLetterQueue, queueArn, queueIdOf } from './helpers/dead-letters';
import {
  actionsOf,
  DECRYPT_CHAT_SECRETS,
  DESCRIBE_RESTART_EXECUTIONS,
  roleStatements,
} from './helpers/handler-resources';
import {
  CHAT_SECRETS_KEY,
  secretArn,
  slackApprovalReferences,
  synthWithApprovalChannels,
  webhookApprovalReferences,
} from './helpers/synth';

const ARN = secretArn;
const TOPIC = 'arn:aws:sns:us-east-1:123456789012:nomad-restart-questions';

function synth(slack: SlackApprovalReferences = slackApprovalReferences()) {
  return synthWithApprovalChannels('ApprovalsTest', TOPIC, {
    slackApprovals: slack,
    webhookApprovals: webhookApprovalReferences({ answerKeyIds: ['ops'] }),
  });
}

describe('NomadRestartStack with approvals', () => {
  const { app, template } = synth();

  it('lets the endpoint answer on this state machine and describe only its executions', () => {
    // Act
    const statements = roleStatements(template, 'nomad-restart approval-endpoint handler');

    // Assert
    const states = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('states:')));
    expect(states).toEqual([
      // Approve or deny, an answer is a SendTaskSuccess (lib/approvals/decide.ts): no SendTaskFailure.
      {
        Action: 'states:SendTaskSuccess',
        Effect: 'Allow',
        Resource: { Ref: expect.stringMatching(/^RestartStateMachine/) },
      },
      // An answer whose reply was lost: did the execution take it? (lib/approvals/decide.ts)
      DESCRIBE_RESTART_EXECUTIONS,
    ]);
  });

  it('lets the endpoint read and write its table, and record run-control requests on the lock table, nothing more', () => {
    // Act
    const statements = roleStatements(template, 'nomad-restart approval-endpoint handler');

    // Assert: no scan, no delete; the two indexes run control reads by name only.
    const dynamo = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    const approvals = expect.stringMatching(/^RestartApprovalsTable/);
    const lock = expect.stringMatching(/^RestartLockTable/);
    const index = (table: unknown, name: string) => ({
      'Fn::Join': ['', [{ 'Fn::GetAtt': [table, 'Arn'] }, `/index/${name}`]],
    });
    expect(dynamo).toEqual([
      {
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [approvals, 'Arn'] },
      },
      {
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [lock, 'Arn'] },
      },
      {
        Action: 'dynamodb:Query',
        Effect: 'Allow',
        Resource: [index(lock, 'owner-index'), index(approvals, 'pending-index')],
      },
    ]);
    const other = statements
      .flatMap(actionsOf)
      .filter((a) => !/^(states|dynamodb|secretsmanager|logs|xray):/.test(a) && a !== 'kms:Decrypt');
    expect(other).toEqual([]);
  });

  it('references every secret by ARN and creates none, so no secret value is in the template', () => {
    // Act
    const text = JSON.stringify(template.toJSON());
    const endpoint = template.findResources('AWS::Lambda::Function', {
      Properties: { Environment: { Variables: { SLACK_SIGNING_SECRET_ARN: ARN('slack-signing') } } },
    });

    // Assert
    expect(template.findResources('AWS::SecretsManager::Secret')).toEqual({});
    expect(Object.keys(endpoint)).toHaveLength(1);
    for (const name of ['slack-bot', 'slack-signing', 'webhook']) expect(text).toContain(ARN(name));
  });

  it.each(['approval-endpoint', 'approval-notifier'])(
    'lets the %s decrypt the chat secrets with their key, through Secrets Manager only',
    (handler) => {
      // Act
      const statements = roleStatements(template, `nomad-restart ${handler} handler`);

      // Assert
      expect(statements.filter((s) => actionsOf(s).includes('kms:Decrypt'))).toEqual([DECRYPT_CHAT_SECRETS]);
    },
  );

  it('gives the notifier the stream (inserts and changes of questions) and publish on the topic, not the signing secret', () => {
    // Act
    const statements = roleStatements(template, 'nomad-restart approval-notifier handler');

    // Assert
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FilterCriteria: {
        Filters: questionRecordPatterns('approvalId', ['INSERT', 'MODIFY']).map((Pattern) => ({ Pattern })),
      },
    });
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'KEYS_ONLY' },
    });
    expect(statements).toContainEqual(expect.objectContaining({ Action: 'sns:Publish', Resource: TOPIC }));
    expect(JSON.stringify(statements)).not.toContain('slack-signing');
  });

  it('retries a failing stream batch 5 times, halving it, then records it in a watched dead-letter queue', () => {
    // Act
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    const props = mappings[0]?.['Properties'];
    const queueId = queueIdOf(props['DestinationConfig']['OnFailure']['Destination']);

    // Assert
    expect(mappings).toHaveLength(1);
    expect(props).toMatchObject({ MaximumRetryAttempts: 5, BisectBatchOnFunctionError: true });
    expectWatchedDeadLetterQueue(template, queueId);
    expect(
      roleStatements(template, 'nomad-restart approval-notifier handler').filter((s) =>
        actionsOf(s).includes('sqs:SendMessage'),
      ),
    ).toEqual([expect.objectContaining({ Resource: queueArn(queueId) })]);
  });

  it('serves the endpoint on a Function URL and outputs the Slack interactivity URL', () => {
    // Assert
    template.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'NONE' });
    template.hasOutput('SlackInteractivityUrl', {
      Value: {
        'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.anyValue(), 'FunctionUrl'] }, 'slack/interactions']],
      },
    });
  });

  it("caps the public endpoint's concurrency at 10 by default, and no other function's", () => {
    // Act
    const functions = template.findResources('AWS::Lambda::Function');
    const capped = Object.entries(functions)
      .filter(([, f]) => f['Properties']['ReservedConcurrentExecutions'] !== undefined)
      .map(([id, f]) => [id, f['Properties']['ReservedConcurrentExecutions']]);

    // Assert
    expect(capped).toEqual([[expect.stringMatching(/approvalendpointfnFunction/), 10]]);
  });

  it.each([
    { reserved: 3, expectedErr: undefined },
    { reserved: 'none' as const, expectedErr: undefined },
    {
      reserved: 0,
      expectedErr:
        "endpointReservedConcurrency must be a whole number from 1 to 100, or 'none' for no reservation, got 0",
    },
    {
      reserved: 2.5,
      expectedErr:
        "endpointReservedConcurrency must be a whole number from 1 to 100, or 'none' for no reservation, got 2.5",
    },
    {
      reserved: 101,
      expectedErr:
        "endpointReservedConcurrency must be a whole number from 1 to 100, or 'none' for no reservation, got 101",
    },
  ])('takes endpointReservedConcurrency $reserved', ({ reserved, expectedErr }) => {
    // Arrange
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Reserved');
    const secret = (name: string) => secretsmanager.Secret.fromSecretCompleteArn(stack, name, ARN(name));
    const build = () =>
      new NomadRestartWorkflow(stack, 'Restart', {
        nomadAddress: 'https://nomad.internal:4646',
        approvals: {
          slack: {
            botTokenSecret: secret('bot'),
            signingSecret: secret('signing'),
            channelId: 'C1',
            allowedUserIds: ['U1'],
          },
          endpointReservedConcurrency: reserved,
        },
      });

    // Act / Assert
    if (expectedErr !== undefined) {
      expect(build).toThrow(expectedErr);
      return;
    }
    build();
    const endpoint = Object.entries(Template.fromStack(stack).findResources('AWS::Lambda::Function')).find(
      ([id]) => /approvalendpointfnFunction/.test(id),
    );
    expect(endpoint?.[1]['Properties']['ReservedConcurrentExecutions']).toBe(
      reserved === 'none' ? undefined : reserved,
    );
  });

  it('refuses Slack without an allow-list', () => {
    // Arrange
    const { allowedUserIds: _, ...withoutAllowList } = slackApprovalReferences();

    // Act
    const act = () => synth(withoutAllowList);

    // Assert
    expect(act).toThrow(/slack needs allowedUserIds or allowedChannelIds/);
  });

  it('reports no unacknowledged cdk-nag finding', () => {
    // Act
    const report = new AwsSolutionsChecks(app).validateScope(app);

    // Assert
    expect(
      report.violations.map(
        (v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.resourceLogicalId).join(', ')}`,
      ),
    ).toEqual([]);
  });
});

describe('stackPropsFromContext with approvals', () => {
  it('reads Slack, the webhook, the topic and the key from -c values', () => {
    // Arrange
    const context: Record<string, string> = {
      nomadAddress: 'https://nomad.internal:4646',
      slackBotTokenSecretArn: 'slack-bot',
      slackSigningSecretArn: ARN('slack-signing'),
      slackChannelId: 'C123',
      slackAllowedUserIds: 'U1, U2',
      webhookUrl: 'https://chat.example.com/hook',
      webhookSecretArn: 'webhook',
      webhookKeyId: 'ops',
      webhookAnswerKeyIds: 'ops',
      approvalEmailTopicArn: TOPIC,
      approvalSecretsKmsKeyArn: CHAT_SECRETS_KEY,
    };

    // Act
    const props = stackPropsFromContext((key) => context[key]);

    // Assert
    expect(props).toMatchObject({
      slackApprovals: {
        botTokenSecret: { name: 'slack-bot' },
        signingSecret: { completeArn: ARN('slack-signing') },
        channelId: 'C123',
        allowedUserIds: ['U1', 'U2'],
      },
      webhookApprovals: { secret: { name: 'webhook' }, keyId: 'ops', answerKeyIds: ['ops'] },
      approvalEmailTopicArn: TOPIC,
      approvalSecretsKmsKeyArn: CHAT_SECRETS_KEY,
    });
  });

  it.each([
    { value: '25', expected: 25, expectedErr: undefined },
    { value: 'none', expected: 'none', expectedErr: undefined },
    { value: '0', expected: undefined, expectedErr: '"0": expected a whole number from 1 to 100, or "none"' },
    {
      value: '2.5',
      expected: undefined,
      expectedErr: '"2.5": expected a whole number from 1 to 100, or "none"',
    },
    {
      value: 'ten',
      expected: undefined,
      expectedErr: '"ten": expected a whole number from 1 to 100, or "none"',
    },
    {
      value: '101',
      expected: undefined,
      expectedErr: '"101": expected a whole number from 1 to 100, or "none"',
    },
    {
      value: 'None',
      expected: undefined,
      expectedErr: '"None": expected a whole number from 1 to 100, or "none"',
    },
  ])('reads -c approvalEndpointReservedConcurrency=$value', ({ value, expected, expectedErr }) => {
    // Act
    const act = () =>
      stackPropsFromContext(
        (key) =>
          ({ nomadAddress: 'https://nomad.internal:4646', approvalEndpointReservedConcurrency: value })[key],
      );

    // Assert
    if (expectedErr !== undefined) {
      expect(act).toThrow(`Context "approvalEndpointReservedConcurrency" is ${expectedErr}`);
      return;
    }
    expect(act().approvalEndpointReservedConcurrency).toBe(expected);
  });

  it("gives the stack's approvalEndpointReservedConcurrency to the answer endpoint", () => {
    // Arrange
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });

    // Act
    const stack = new NomadRestartStack(app, 'Reserved', {
      nomadAddress: 'https://nomad.internal:4646',
      slackApprovals: {
        botTokenSecret: { completeArn: ARN('slack-bot') },
        signingSecret: { completeArn: ARN('slack-signing') },
        channelId: 'C123',
        allowedUserIds: ['U1'],
      },
      approvalEndpointReservedConcurrency: 4,
    });

    // Assert
    Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', {
      Role: { 'Fn::GetAtt': [Match.stringLikeRegexp('approvalendpointfn'), 'Arn'] },
      ReservedConcurrentExecutions: 4,
    });
  });

  it('reserves no concurrency anywhere with -c approvalEndpointReservedConcurrency=none', () => {
    // Arrange: what an account whose Lambda concurrency quota is 10 deploys with.
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const context: Record<string, string> = {
      nomadAddress: 'https://nomad.internal:4646',
      slackBotTokenSecretArn: ARN('slack-bot'),
      slackSigningSecretArn: ARN('slack-signing'),
      slackChannelId: 'C123',
      slackAllowedUserIds: 'U1',
      approvalEndpointReservedConcurrency: 'none',
    };

    // Act
    const stack = new NomadRestartStack(
      app,
      'Unreserved',
      stackPropsFromContext((key) => context[key]),
    );

    // Assert: the endpoint exists, and no function takes from the account's unreserved pool.
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'NONE' });
    const reserved = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => f['Properties']['ReservedConcurrentExecutions'] !== undefined,
    );
    expect(reserved).toEqual([]);
  });

  it('names the setting when the chat secrets key is not a KMS key ARN', () => {
    // Act
    const act = () =>
      stackPropsFromContext((key) =>
        key === 'nomadAddress'
          ? 'https://nomad.internal:4646'
          : key === 'approvalSecretsKmsKeyArn'
            ? 'alias/x'
            : undefined,
      );

    // Assert
    expect(act).toThrow('Context "approvalSecretsKmsKeyArn" is "alias/x", not a KMS key ARN');
  });
});
