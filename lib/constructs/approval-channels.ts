/**
 * `ApprovalChannels`: chat-ops approvals for a `NomadRestartWorkflow`. A notifier on the approvals
 * table's stream posts each question to the configured channels (Slack, a signed webhook, an SNS
 * topic) and updates the message once decided; an endpoint behind a Lambda Function URL takes
 * the answers (Slack interactivity, webhook answers). Secrets are referenced by ARN, never
 * inlined; the endpoint may only answer this state machine's tasks and read and write its table.
 */
import { type Duration, type RemovalPolicy, Stack, ValidationError } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { APPROVAL_ROUTES } from '../approvals/endpoint';
import { APPROVAL_ENV } from '../approvals/settings';
import { APPROVALS_TABLE_SCHEMA } from '../stores/dynamodb-approval-store';
import { LOCK_TABLE_SCHEMA } from '../stores/dynamodb-job-lock';
import { ENV } from '../stores/from-env';
import { questionRecordPatterns } from './private/approvals-stream-filter';
import { grantPosting, postingEnvironment } from './private/chat-channel-grants';
import { DeadLetterQueue } from './private/dead-letter-queue';
import { grantDescribeExecutions } from './private/describe-executions-grant';
import { grantDecryptThroughSecretsManager, grantGetSecretValue } from './private/secrets-key-grant';
import { TaskFunction } from './private/task-function';

/** Slack: where questions are posted and who may answer them. */
export interface SlackApprovalProps {
  /** Secret holding the bot token (`xoxb-...`, scopes `chat:write`); read by the notifier and the endpoint. */
  readonly botTokenSecret: secretsmanager.ISecret;
  /** Secret holding the app's signing secret; read by the endpoint only, to verify requests. */
  readonly signingSecret: secretsmanager.ISecret;
  /** Channel id (`C...`) questions are posted to; the bot must be a member. */
  readonly channelId: string;
  /** Slack user ids (`U...`) that may answer. @default - any user in `allowedChannelIds` */
  readonly allowedUserIds?: string[];
  /** Channels questions may be answered from. @default - any channel, for `allowedUserIds` */
  readonly allowedChannelIds?: string[];
  /** Teams (workspaces, `T...`) answers may come from. @default - any team the app is installed in */
  readonly allowedTeamIds?: string[];
  /** Slack's Web API base URL. @default 'https://slack.com/api/' */
  readonly slackApiUrl?: string;
}

/** A generic webhook for other chat systems: JSON, HMAC-SHA256-signed, timestamped. */
export interface WebhookApprovalProps {
  /** Where questions and decisions are POSTed (https). */
  readonly url: string;
  /** Secret holding JSON `{"<key id>": "<secret>", ...}`: deliveries are signed with `keyId`'s. */
  readonly secret: secretsmanager.ISecret;
  /** The key that signs deliveries (`x-nomad-restart-key-id`). */
  readonly keyId: string;
  /** Keys whose signed answers are accepted at the endpoint. @default - none: the webhook only notifies */
  readonly answerKeyIds?: string[];
}

/** The channels; each is optional, and none at all means questions are answered at a terminal only. */
export interface ApprovalChannelsProps {
  /** @default - no Slack */
  readonly slack?: SlackApprovalProps;
  /** @default - no webhook */
  readonly webhook?: WebhookApprovalProps;
  /** SNS topic questions are published to (e-mail subscribers). @default - no topic */
  readonly emailTopic?: sns.ITopic;
  /**
   * Customer-managed KMS key that encrypts the chat secrets: the notifier and the endpoint may
   * `kms:Decrypt` with it only, through Secrets Manager.
   * @default - the secrets use the AWS managed key, which needs no grant
   */
  readonly secretsKey?: kms.IKey;
  /**
   * Concurrent executions reserved for the answer endpoint, which is also its cap. Its Function
   * URL is public (auth NONE: requests are verified by their signatures inside the function), so
   * without a cap a flood of unsigned requests could take the account's whole concurrency and
   * throttle the workflow's own functions until runs fail; with it, a flood only throttles the
   * endpoint (answers are retried by Slack, or again by the person). A whole number from 1 to 100,
   * or `'none'` for no reservation (and no cap): Lambda refuses a reservation that leaves the
   * account fewer than 100 unreserved executions, so an account whose concurrency quota is under
   * 100 plus this number (new accounts often have 10 or 50) deploys only with `'none'`.
   * @default 10
   */
  readonly endpointReservedConcurrency?: number | 'none';
}

/** Default of {@link ApprovalChannelsProps.endpointReservedConcurrency}: a few people answering at once, with room. */
export const DEFAULT_ENDPOINT_RESERVED_CONCURRENCY = 10;

/** What the channels attach to: the workflow's table and state machine, and its log settings. */
export interface ApprovalChannelsResources extends ApprovalChannelsProps {
  readonly approvalsTable: dynamodb.Table;
  /** Where the endpoint records a run's pause and stop requests (lib/approvals/run-control.ts). */
  readonly lockTable: dynamodb.Table;
  readonly stateMachine: sfn.StateMachine;
  readonly logRetention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  readonly timeout: Duration;
}

const lit = (s: string) => s as ConstructorParameters<typeof ValidationError>[0];

/** Whether any channel is configured. */
export function hasApprovalChannels(props: ApprovalChannelsProps): boolean {
  return props.slack !== undefined || props.webhook !== undefined || props.emailTopic !== undefined;
}

/** The notifier, and the endpoint with its Function URL when a channel takes answers. */
export class ApprovalChannels extends Construct {
  /** Posts and updates the question messages (approvals table stream). */
  public readonly notifier: lambda.IFunction;
  /** Takes answers; absent when no channel takes any (SNS only, or a webhook without answer keys). */
  public readonly endpoint?: lambda.IFunction;
  /** The endpoint's URL (ends with `/`): Slack's interactivity URL is `<url>slack/interactions`. */
  public readonly endpointUrl?: lambda.FunctionUrl;
  /** Stream batches the notifier still failed on after its retries (their shard and sequence numbers), with an alarm. */
  public readonly notifierDeadLetters: DeadLetterQueue;

  public constructor(scope: Construct, id: string, props: ApprovalChannelsResources) {
    super(scope, id);
    this.validate(props);
    const answers = props.slack !== undefined || (props.webhook?.answerKeyIds?.length ?? 0) > 0;
    let answerUrl: string | undefined;
    if (answers) {
      const reserved = props.endpointReservedConcurrency ?? DEFAULT_ENDPOINT_RESERVED_CONCURRENCY;
      const endpoint = this.fn(
        'approval-endpoint',
        props,
        this.endpointEnvironment(props),
        reserved === 'none' ? {} : { reservedConcurrentExecutions: reserved },
      );
      this.endpoint = endpoint;
      // Slack and webhook senders cannot sign with SigV4: each request is verified by its own
      // signature (Slack v0, webhook v1 HMAC) inside the function instead.
      this.endpointUrl = endpoint.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE });
      answerUrl = `${this.endpointUrl.url}${APPROVAL_ROUTES.webhook.slice(1)}`;
      this.grantEndpoint(endpoint, props);
    }
    const notifier = this.fn('approval-notifier', props, {
      ...postingEnvironment(props),
      ...(answerUrl === undefined || props.webhook === undefined
        ? {}
        : { [APPROVAL_ENV.webhookAnswerUrl]: answerUrl }),
    });
    this.notifier = notifier;
    this.notifierDeadLetters = new DeadLetterQueue(this, 'NotifierDeadLetters', {
      holds:
        'Questions or decisions the approval notifier failed to post (stream records, by shard and sequence number)',
    });
    notifier.addEventSource(
      // exactOptionalPropertyTypes trips over CDK's own Table vs ITable optional fields.
      new DynamoEventSource(props.approvalsTable as unknown as dynamodb.ITable, {
        startingPosition: lambda.StartingPosition.LATEST,
        // New questions and their decisions; never the replay guard's inserts.
        filters: questionRecordPatterns(APPROVALS_TABLE_SCHEMA.partitionKey, ['INSERT', 'MODIFY']).map(
          (pattern) => ({ pattern }),
        ),
        retryAttempts: 5,
        bisectBatchOnError: true,
        // A batch still failing after that is recorded there, not dropped (the grant comes with it).
        onFailure: new SqsDlq(this.notifierDeadLetters.queue),
      }),
    );
    // Reads questions, records the messages that show them.
    this.tableAccess(notifier, props, ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    grantPosting(notifier, props);
  }

  private validate(props: ApprovalChannelsProps): void {
    const reserved = props.endpointReservedConcurrency;
    if (
      reserved !== undefined &&
      reserved !== 'none' &&
      !(Number.isInteger(reserved) && reserved >= 1 && reserved <= 100)
    ) {
      throw new ValidationError(
        lit('InvalidEndpointReservedConcurrency'),
        `endpointReservedConcurrency must be a whole number from 1 to 100, or 'none' for no reservation, got ${JSON.stringify(reserved)}`,
        this,
      );
    }
    const slack = props.slack;
    if (slack === undefined) return;
    if (slack.channelId.trim() === '') {
      throw new ValidationError(
        lit('InvalidSlackChannel'),
        'slack.channelId must name a channel, got ""',
        this,
      );
    }
    if ((slack.allowedUserIds?.length ?? 0) === 0 && (slack.allowedChannelIds?.length ?? 0) === 0) {
      throw new ValidationError(
        lit('SlackAllowListMissing'),
        'slack needs allowedUserIds or allowedChannelIds: the signing secret proves a request came through the app, not who may answer',
        this,
      );
    }
  }

  private fn(
    handlerId: string,
    props: ApprovalChannelsResources,
    environment: Record<string, string>,
    limits: { readonly reservedConcurrentExecutions?: number } = {},
  ) {
    return new TaskFunction(this, `${handlerId}-fn`, {
      ...limits,
      handlerId,
      timeout: props.timeout,
      environment: { ...environment, [ENV.approvalsTable]: props.approvalsTable.tableName },
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    }).function;
  }

  private endpointEnvironment(props: ApprovalChannelsResources): Record<string, string> {
    const E = APPROVAL_ENV;
    // The endpoint publishes nothing: it gets the Slack and webhook settings, not the topic.
    const { [E.emailTopicArn]: _topic, ...env } = postingEnvironment(props);
    // Run control: pause and stop requests are recorded on the run's lock item.
    env[ENV.lockTable] = props.lockTable.tableName;
    // A fleet's resume or stop answers its parked jobs' questions, listed under this state machine.
    env[E.restartStateMachineArn] = props.stateMachine.stateMachineArn;
    const join = (ids: string[] | undefined) => (ids === undefined ? undefined : ids.join(','));
    const slack = props.slack;
    if (slack !== undefined) {
      env[E.slackSigningSecretArn] = slack.signingSecret.secretArn;
      for (const [name, ids] of [
        [E.slackAllowedUserIds, join(slack.allowedUserIds)],
        [E.slackAllowedChannelIds, join(slack.allowedChannelIds)],
        [E.slackAllowedTeamIds, join(slack.allowedTeamIds)],
      ] as const) {
        if (ids !== undefined) env[name] = ids;
      }
    }
    if (props.webhook?.answerKeyIds !== undefined)
      env[E.webhookAnswerKeyIds] = props.webhook.answerKeyIds.join(',');
    return env;
  }

  private grantEndpoint(endpoint: lambda.Function, props: ApprovalChannelsResources): void {
    // Decide (GetItem, UpdateItem) and the replay guard (PutItem of seen:<signature> items).
    this.tableAccess(endpoint, props, ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem']);
    // Run control (lib/approvals/run-control.ts): the jobs a run holds (the owner index, keys
    // only), the request recorded on each lock item (UpdateItem; GetItem reads one back to
    // withdraw a pause), and the run's parked pause question among the pending ones.
    endpoint.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        resources: [props.lockTable.tableArn],
      }),
    );
    endpoint.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [
          `${props.lockTable.tableArn}/index/${LOCK_TABLE_SCHEMA.ownerIndex}`,
          `${props.approvalsTable.tableArn}/index/${APPROVALS_TABLE_SCHEMA.pendingIndex}`,
        ],
      }),
    );
    // Every answer, approve or deny, is a SendTaskSuccess carrying the decision (lib/approvals/
    // decide.ts): the endpoint never fails a task, so it is not granted SendTaskFailure.
    endpoint.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['states:SendTaskSuccess'],
        resources: [props.stateMachine.stateMachineArn],
      }),
    );
    grantDescribeExecutions(
      endpoint,
      props.stateMachine,
      'An answer whose SendTaskSuccess reply was lost asks whether its execution took it; any execution of this state machine can ask, their names are not known when deploying.',
    );
    for (const secret of [props.slack?.botTokenSecret, props.slack?.signingSecret, props.webhook?.secret])
      if (secret !== undefined) grantGetSecretValue(endpoint, secret);
    if (props.secretsKey !== undefined)
      grantDecryptThroughSecretsManager(endpoint, props.secretsKey, Stack.of(this).region);
  }

  /** The table's own ARN only: Table.grant() would add "<table>/index/*". */
  private tableAccess(fn: lambda.Function, props: ApprovalChannelsResources, actions: string[]): void {
    fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [props.approvalsTable.tableArn] }));
  }
}
