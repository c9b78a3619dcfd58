/**
 * Run notifications in the template: an EventBridge rule on this state machine's ending status
 * changes targets the run-end notifier, whose role may describe this state machine's executions,
 * read the runs' records, read the secrets it posts with (never the Slack signing secret) and
 * publish on the topic, and nothing else; the channels can be the approval channels or a list
 * of their own; none means no rule and no function; cdk-nag has no unacknowledged finding.
 */
import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { NomadRestartWorkflow } from '../../lib/constructs/nomad-restart-workflow';
import { RunNotifications } from '../../lib/constructs/run-notifications';
import { stackPropsFromContext } from '../../lib/constructs/stack-context';
import { expectWatchedDeadLetterQueue, queueArn, queueIdOf } from './helpers/dead-letters';
import {
  actionsOf,
  DECRYPT_CHAT_SECRETS,
  DESCRIBE_RESTART_EXECUTIONS,
  functionEnvironment,
  roleStatements,
} from './helpers/handler-resources';
import { awsSolutionsFindings } from './helpers/nag';
import { secretArn, synthStack, synthWithApprovalChannels } from './helpers/synth';

const ARN = secretArn;
const TOPIC = 'arn:aws:sns:us-east-1:123456789012:nomad-restart-runs';
const ROLE = 'nomad-restart notify-run-ended handler';
const env = { account: '123456789012', region: 'us-east-1' };
const newApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });

function synthWithChannelsAndNotifications() {
  return synthWithApprovalChannels('RunNotificationsTest', TOPIC, { notifyRunEnded: true });
}

describe('run notifications', () => {
  const { app, template } = synthWithChannelsAndNotifications();

  it("routes the one-job and fleet state machines' ending status changes to the notifier", () => {
    // Act
    const rules = template.findResources('AWS::Events::Rule', {
      Properties: { Description: 'Posts the end of each nomad-restart run to its chat channels' },
    });

    // Assert
    expect(Object.values(rules)).toEqual([
      {
        Type: 'AWS::Events::Rule',
        Properties: {
          Description: 'Posts the end of each nomad-restart run to its chat channels',
          State: 'ENABLED',
          EventPattern: {
            source: ['aws.states'],
            'detail-type': ['Step Functions Execution Status Change'],
            detail: {
              status: ['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'],
              // The one-job runs' and the fleet runs' ends.
              stateMachineArn: [
                { Ref: expect.stringMatching(/^RestartStateMachine[0-9A-F]+$/) },
                { Ref: expect.stringMatching(/^FleetStateMachine[0-9A-F]+$/) },
              ],
            },
          },
          Targets: [
            {
              Arn: {
                'Fn::GetAtt': [expect.stringMatching(/^RunNotificationsnotifyrunendedfn/), 'Arn'],
              },
              Id: 'Target0',
              RetryPolicy: { MaximumEventAgeInSeconds: 7200, MaximumRetryAttempts: 8 },
              DeadLetterConfig: {
                Arn: { 'Fn::GetAtt': [expect.stringMatching(/^RunNotificationsRunEndedDeadLetters/), 'Arn'] },
              },
            },
          ],
        },
      },
    ]);
  });

  it('sends what it could not deliver, and what the notifier kept failing on, to one watched dead-letter queue', () => {
    // Arrange
    const rule = Object.values(
      template.findResources('AWS::Events::Rule', {
        Properties: { Description: 'Posts the end of each nomad-restart run to its chat channels' },
      }),
    )[0];
    const queueId = queueIdOf(rule?.['Properties']['Targets'][0]['DeadLetterConfig']['Arn']);

    // Act
    const asyncConfigs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig')).map(
      (c) => c['Properties'],
    );

    // Assert
    expectWatchedDeadLetterQueue(template, queueId);
    expect(asyncConfigs).toContainEqual({
      FunctionName: { Ref: expect.stringMatching(/^RunNotificationsnotifyrunendedfn/) },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: queueArn(queueId) } },
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 'sqs:SendMessage',
            Principal: { Service: 'events.amazonaws.com' },
            Condition: {
              ArnEquals: {
                'aws:SourceArn': {
                  'Fn::GetAtt': [Match.stringLikeRegexp('^RunNotificationsRunEnded'), 'Arn'],
                },
              },
            },
          }),
        ]),
      }),
    });
    expect(roleStatements(template, ROLE).filter((s) => actionsOf(s).includes('sqs:SendMessage'))).toEqual([
      expect.objectContaining({ Resource: queueArn(queueId) }),
    ]);
  });

  it('lets only that rule invoke the notifier', () => {
    // Assert
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: {
        'Fn::GetAtt': [Match.stringLikeRegexp('^RunNotificationsnotifyrunendedfn'), 'Arn'],
      },
      SourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RunNotificationsRunEnded'), 'Arn'] },
    });
  });

  it("lets the notifier describe the one-job and fleet state machines' executions, read the runs' records and threads, nothing more", () => {
    // Act
    const statements = roleStatements(template, ROLE);

    // Assert
    const bucket = expect.stringMatching(/^RestartPlanBucket/);
    expect(statements.filter((s) => actionsOf(s).some((a) => /^(states|s3):/.test(a)))).toEqual([
      DESCRIBE_RESTART_EXECUTIONS,
      {
        Action: 's3:GetObject',
        Effect: 'Allow',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/runs/*']] },
      },
      {
        Action: 's3:ListBucket',
        Condition: { StringLike: { 's3:prefix': ['runs/*'] } },
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [bucket, 'Arn'] },
      },
      // A fleet's end is told from the event (its summary); describing fills in a large one.
      {
        ...DESCRIBE_RESTART_EXECUTIONS,
        Resource: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':states:us-east-1:123456789012:execution:',
              { 'Fn::GetAtt': [expect.stringMatching(/^FleetStateMachine/), 'Name'] },
              ':*',
            ],
          ],
        },
      },
    ]);
    // The run's live thread (lib/approvals/run-thread.ts): its item in the approvals table only.
    expect(statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')))).toEqual([
      {
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [expect.stringMatching(/^RestartApprovalsTable/), 'Arn'] },
      },
    ]);
    const other = statements
      .flatMap(actionsOf)
      .filter(
        (a) =>
          !/^(states|s3|dynamodb|secretsmanager|logs|xray|sqs):/.test(a) &&
          a !== 'kms:Decrypt' &&
          a !== 'sns:Publish',
      );
    expect(other).toEqual([]);
  });

  it('lets the notifier read the secrets it posts with, publish on the topic, and decrypt through Secrets Manager', () => {
    // Act
    const statements = roleStatements(template, ROLE);
    const text = JSON.stringify(statements);

    // Assert
    expect(text).toContain(ARN('slack-bot'));
    expect(text).toContain(ARN('webhook'));
    expect(text).not.toContain('slack-signing');
    expect(statements).toContainEqual(expect.objectContaining({ Action: 'sns:Publish', Resource: TOPIC }));
    expect(statements).toContainEqual(DECRYPT_CHAT_SECRETS);
  });

  it('names the channels and the plan bucket in its environment, and no table or signing secret', () => {
    // Act
    const variables = functionEnvironment(template, 'notify-run-ended');

    // Assert
    expect(variables).toMatchObject({
      SLACK_BOT_TOKEN_SECRET_ARN: ARN('slack-bot'),
      SLACK_CHANNEL_ID: 'C123',
      WEBHOOK_URL: 'https://chat.example.com/hook',
      WEBHOOK_SECRET_ARN: ARN('webhook'),
      WEBHOOK_KEY_ID: 'ops',
      EMAIL_TOPIC_ARN: TOPIC,
    });
    expect(Object.keys(variables)).not.toEqual(expect.arrayContaining(['SLACK_SIGNING_SECRET_ARN']));
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ PLAN_BUCKET: { Ref: Match.stringLikeRegexp('^RestartPlanBucket') } }),
      },
      Role: { 'Fn::GetAtt': [Match.stringLikeRegexp('^RunNotificationsnotifyrunendedfn'), 'Arn'] },
    });
  });

  it('reports no unacknowledged cdk-nag finding', () => {
    // Act
    const report = awsSolutionsFindings(app);

    // Assert
    expect(report.findings).toEqual([]);
    expect(report.success).toBe(true);
  });
});

describe('RunNotifications on its own', () => {
  it('posts to a Slack channel of its own without any approval channel, endpoint or signing secret', () => {
    // Arrange
    const stack = new Stack(newApp(), 'OwnChannels', { env });
    const botToken = secretsmanager.Secret.fromSecretCompleteArn(stack, 'Bot', ARN('slack-bot'));
    const workflow = new NomadRestartWorkflow(stack, 'Restart', {
      nomadAddress: 'https://nomad.internal:4646',
    });

    // Act
    new RunNotifications(stack, 'RunEnds', {
      workflow,
      slack: { botTokenSecret: botToken, channelId: 'C0RUNS' },
    });
    const template = Template.fromStack(stack);

    // Assert
    expect(functionEnvironment(template, 'notify-run-ended')).toMatchObject({ SLACK_CHANNEL_ID: 'C0RUNS' });
    expect(template.findResources('AWS::Lambda::Url')).toEqual({});
    expect(JSON.stringify(template.toJSON())).not.toContain('approval-notifier');
  });

  it('is not part of a workflow or stack that does not ask for it', () => {
    // Act
    const { template } = synthStack();

    // Assert
    expect(JSON.stringify(template.toJSON())).not.toContain('notify-run-ended');
    // Only the rules every stack has: the restart's stale-lock cleanup and the fleet's record end.
    expect(Object.keys(template.findResources('AWS::Events::Rule')).sort()).toEqual([
      expect.stringMatching(/^FleetEndFleetRecord/),
      expect.stringMatching(/^RestartReleaseStaleLock/),
    ]);
  });

  it('refuses notifications that name no channel', () => {
    // Arrange
    const stack = new Stack(newApp(), 'Empty', { env });
    const workflow = new NomadRestartWorkflow(stack, 'Restart', {
      nomadAddress: 'https://nomad.internal:4646',
    });

    // Act
    const act = () => new RunNotifications(stack, 'RunEnds', { workflow });

    // Assert
    expect(act).toThrow('RunNotifications names no channel: give slack, webhook or emailTopic');
  });

  it('refuses notifyRunEnded on a stack without approval channels', () => {
    // Act
    const act = () =>
      new NomadRestartStack(newApp(), 'NoChannels', {
        env,
        nomadAddress: 'https://nomad.internal:4646',
        notifyRunEnded: true,
      });

    // Assert
    expect(act).toThrow('notifyRunEnded posts to the approval channels, and none is configured');
  });
});

describe('the weekly example of docs/schedules.md', () => {
  it('e-mails the end of each of its runs, with the code docs/notifications.md shows', async () => {
    // Arrange: bundling the Lambda code is not what this tests (the App reads this variable).
    process.env['CDK_CONTEXT_JSON'] = JSON.stringify({ 'aws:cdk:bundling-stacks': [] });
    const { stack } = await import('../../examples/weekly-restart');
    delete process.env['CDK_CONTEXT_JSON'];
    const source = readFileSync('examples/weekly-restart.ts', 'utf8');
    const example = /\/\/ docs: run notifications\n([\s\S]*?)\/\/ docs: end/.exec(source)?.[1] ?? '';

    // Act
    const template = Template.fromStack(stack);

    // Assert
    expect(example).toContain('new RunNotifications(');
    expect(readFileSync('docs/notifications.md', 'utf8')).toContain(example.trim());
    expect(functionEnvironment(template, 'notify-run-ended')).toMatchObject({
      EMAIL_TOPIC_ARN: 'arn:aws:sns:eu-central-1:123456789012:ops-mail',
    });
    expect(roleStatements(template, ROLE)).toContainEqual(
      expect.objectContaining({
        Action: 'sns:Publish',
        Resource: 'arn:aws:sns:eu-central-1:123456789012:ops-mail',
      }),
    );
  });
});

describe('stackPropsFromContext with notifyRunEnded', () => {
  const context = (value: string) => (key: string) =>
    ({ nomadAddress: 'https://nomad.internal:4646', notifyRunEnded: value })[key];

  it('reads -c notifyRunEnded=true', () => {
    // Act
    const props = stackPropsFromContext(context('true'));

    // Assert
    expect(props.notifyRunEnded).toBe(true);
  });

  it('names the setting when the value is not true or false', () => {
    // Act
    const act = () => stackPropsFromContext(context('yes'));

    // Assert
    expect(act).toThrow('Context "notifyRunEnded" is "yes"; give true or false, e.g. -c notifyRunEnded=true');
  });
});
