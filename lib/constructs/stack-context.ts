/**
 * The CDK app's context (`-c key=value`) checked and turned into the stack's props, so that a
 * template that could never work on AWS fails `cdk synth` with a message naming the setting and
 * showing an example, not at the first run.
 */
import { NamedError } from '../errors/named-error';
import type { NomadRestartStackProps, SecretReference } from './nomad-restart-stack';
import { NOMAD_ADDRESS_EXAMPLE, nomadAddressProblem } from './private/nomad-address';
import { SNS_TOPIC_ARN } from './private/sns-topic-arn';
import { type VpcPlacementIds, vpcPlacementProblem } from './private/vpc-placement';

/** A context value that makes no deployable stack; its message is the line to print. */
export class StackContextError extends NamedError {}

const ADDRESS_EXAMPLE = `-c nomadAddress=${NOMAD_ADDRESS_EXAMPLE}`;
const SECRET_EXAMPLE =
  '-c nomadTokenSecretArn=nomad-token (a name), or its ARN: arn:aws:secretsmanager:eu-west-1:123456789012:secret:nomad-token-AbCdEf';

/** `nomadAddress`: required, an http(s) URL, and not a loopback address. */
export function nomadAddressFrom(value: string | undefined): string {
  const problem = nomadAddressProblem(value);
  if (problem !== undefined || value === undefined) {
    throw new StackContextError(`Context "nomadAddress" ${problem}, e.g. ${ADDRESS_EXAMPLE}`);
  }
  return value;
}

const SECRET_ARN = /^arn:[^:]+:secretsmanager:[^:]+:\d{12}:secret:(.+)$/;
const SECRET_NAME = /^[A-Za-z0-9/_+=.@-]{1,512}$/;
/** The suffix Secrets Manager adds to a secret's name in its complete ARN. */
const COMPLETE_SUFFIX = /-[A-Za-z0-9]{6}$/;

/**
 * A secret as a user can give it: the complete ARN (with the 6-character suffix Secrets Manager
 * adds), an ARN without it, or the name. Grants match the suffix for the last two.
 */
export function secretFrom(key: string, value: string): SecretReference {
  const arn = SECRET_ARN.exec(value);
  if (arn !== null) {
    return COMPLETE_SUFFIX.test(arn[1] ?? '') ? { completeArn: value } : { partialArn: value };
  }
  if (SECRET_NAME.test(value)) return { name: value };
  throw new StackContextError(
    `Context "${key}" is "${value}", neither a Secrets Manager ARN nor a secret name; e.g. ${SECRET_EXAMPLE.replace('nomadTokenSecretArn', key)}`,
  );
}

const KMS_KEY_ARN = /^arn:[^:]+:kms:[^:]+:\d{12}:key\/[0-9a-f-]+$/;

/** `nomadSecretsKmsKeyArn` (or `key`): a customer-managed key that encrypts secrets. */
export function kmsKeyArnFrom(value: string, key = 'nomadSecretsKmsKeyArn'): string {
  if (KMS_KEY_ARN.test(value)) return value;
  throw new StackContextError(
    `Context "${key}" is "${value}", not a KMS key ARN; e.g. -c ${key}=arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
  );
}

const ids = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * Chat-ops approvals from the context: Slack when `slackBotTokenSecretArn`, `slackSigningSecretArn`
 * and `slackChannelId` are all set (with `slackAllowedUserIds` / `slackAllowedChannelIds` /
 * `slackAllowedTeamIds`, comma-separated); the webhook when `webhookUrl`, `webhookSecretArn` and
 * `webhookKeyId` are (`webhookAnswerKeyIds`); `approvalEmailTopicArn`; `approvalSecretsKmsKeyArn`;
 * `approvalEndpointReservedConcurrency`.
 */
function approvalsFromContext(get: (key: string) => string | undefined): Partial<NomadRestartStackProps> {
  const [token, signing, channelId] = [
    'slackBotTokenSecretArn',
    'slackSigningSecretArn',
    'slackChannelId',
  ].map(get);
  const [url, secret, keyId] = ['webhookUrl', 'webhookSecretArn', 'webhookKeyId'].map(get);
  const topic = get('approvalEmailTopicArn');
  const key = get('approvalSecretsKmsKeyArn');
  const reserved = get('approvalEndpointReservedConcurrency');
  const optional = (key: string, list: string[] | undefined) => (list === undefined ? {} : { [key]: list });
  return {
    ...(token === undefined || signing === undefined || channelId === undefined
      ? {}
      : {
          slackApprovals: {
            botTokenSecret: secretFrom('slackBotTokenSecretArn', token),
            signingSecret: secretFrom('slackSigningSecretArn', signing),
            channelId,
            ...optional('allowedUserIds', ids(get('slackAllowedUserIds'))),
            ...optional('allowedChannelIds', ids(get('slackAllowedChannelIds'))),
            ...optional('allowedTeamIds', ids(get('slackAllowedTeamIds'))),
          },
        }),
    ...(url === undefined || secret === undefined || keyId === undefined
      ? {}
      : {
          webhookApprovals: {
            url,
            secret: secretFrom('webhookSecretArn', secret),
            keyId,
            ...optional('answerKeyIds', ids(get('webhookAnswerKeyIds'))),
          },
        }),
    ...(topic === undefined ? {} : { approvalEmailTopicArn: topic }),
    ...(key === undefined
      ? {}
      : { approvalSecretsKmsKeyArn: kmsKeyArnFrom(key, 'approvalSecretsKmsKeyArn') }),
    ...(reserved === undefined
      ? {}
      : { approvalEndpointReservedConcurrency: reservedConcurrencyFrom(reserved) }),
  };
}

/**
 * `approvalEndpointReservedConcurrency`: a whole number from 1 to 100, or `none` (no reservation,
 * for accounts whose Lambda concurrency quota is too small to reserve any).
 */
function reservedConcurrencyFrom(value: string): number | 'none' {
  if (value === 'none') return 'none';
  const n = Number(value);
  if (/^\d+$/.test(value) && n >= 1 && n <= 100) return n;
  throw new StackContextError(
    `Context "approvalEndpointReservedConcurrency" is "${value}": expected a whole number from 1 to 100, or "none" for no reservation, e.g. -c approvalEndpointReservedConcurrency=10`,
  );
}

const VPC_EXAMPLE =
  '-c vpcId=vpc-0123456789abcdef0 -c subnetIds=subnet-0123456789abcdef0,subnet-0fedcba9876543210 (-c securityGroupIds=sg-0123456789abcdef0)';

/**
 * The VPC the functions that call Nomad run in: `vpcId`, `subnetIds` and `securityGroupIds`
 * (comma-separated), checked as the stack checks them (docs/deploying.md, "Running in a VPC").
 */
function vpcFromContext(get: (key: string) => string | undefined): VpcPlacementIds {
  const vpcId = get('vpcId');
  const subnetIds = ids(get('subnetIds'));
  const securityGroupIds = ids(get('securityGroupIds'));
  const placement = {
    ...(vpcId === undefined ? {} : { vpcId }),
    ...(subnetIds === undefined ? {} : { subnetIds }),
    ...(securityGroupIds === undefined ? {} : { securityGroupIds }),
  };
  const problem = vpcPlacementProblem(placement);
  if (problem !== undefined) {
    throw new StackContextError(`Context "${problem.key}" ${problem.problem}; e.g. ${VPC_EXAMPLE}`);
  }
  return placement;
}

const VARIABLES_LOCK_MODES = ['on', 'required', 'off'] as const;

/** `variablesLock`: how runs take the job's lock shared with every `nomad-restart` process. */
function variablesLockFrom(value: string): (typeof VARIABLES_LOCK_MODES)[number] {
  const mode = VARIABLES_LOCK_MODES.find((m) => m === value);
  if (mode === undefined)
    throw new StackContextError(
      `Context "variablesLock" is "${value}": expected "on", "required" or "off", e.g. -c variablesLock=required`,
    );
  return mode;
}

/** A `true`/`false` setting; `example` is the value the message shows (the one that changes the default). */
function booleanFrom(key: string, value: string | undefined, example: boolean): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false')
    throw new StackContextError(
      `Context "${key}" is "${value}"; give true or false, e.g. -c ${key}=${example}`,
    );
  return value === 'true';
}

/** The stack's props from the app's context; `get` reads one key (`undefined` when unset or empty). */
export function stackPropsFromContext(get: (key: string) => string | undefined): NomadRestartStackProps {
  const token = get('nomadTokenSecretArn');
  const tls = get('nomadTlsSecretArn');
  const consulAddress = get('consulAddress');
  const consulToken = get('consulTokenSecretArn');
  const key = get('nomadSecretsKmsKeyArn');
  const batches = get('batchesPerExecution');
  const lock = get('variablesLock');
  const notify = booleanFrom('notifyRunEnded', get('notifyRunEnded'), true);
  const dashboard = booleanFrom('dashboard', get('dashboard'), false);
  return {
    nomadAddress: nomadAddressFrom(get('nomadAddress')),
    ...(token === undefined ? {} : { nomadTokenSecret: secretFrom('nomadTokenSecretArn', token) }),
    ...(tls === undefined ? {} : { nomadTlsSecret: secretFrom('nomadTlsSecretArn', tls) }),
    ...(key === undefined ? {} : { nomadSecretsKmsKeyArn: kmsKeyArnFrom(key) }),
    ...(consulAddress === undefined ? {} : { consulAddress }),
    ...(consulToken === undefined
      ? {}
      : { consulTokenSecret: secretFrom('consulTokenSecretArn', consulToken) }),
    ...(batches === undefined ? {} : { batchesPerExecution: Number(batches) }),
    ...(lock === undefined ? {} : { variablesLock: variablesLockFrom(lock) }),
    ...approvalsFromContext(get),
    ...(notify === true ? { notifyRunEnded: true } : {}),
    ...(dashboard === undefined ? {} : { dashboard }),
    ...alarmsFromContext(get),
    ...vpcFromContext(get),
  };
}

/** `alarmTopicArn`: the SNS topic every alarm of the stack notifies. */
function alarmsFromContext(get: (key: string) => string | undefined): Partial<NomadRestartStackProps> {
  const topic = get('alarmTopicArn');
  if (topic === undefined) return {};
  if (!SNS_TOPIC_ARN.test(topic)) {
    throw new StackContextError(
      `Context "alarmTopicArn" is "${topic}", not an SNS topic ARN; e.g. -c alarmTopicArn=arn:aws:sns:eu-west-1:123456789012:nomad-restart-alarms`,
    );
  }
  return { alarmTopicArn: topic };
}
