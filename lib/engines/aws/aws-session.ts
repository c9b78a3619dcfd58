/**
 * What starting and attaching share: the SDK clients of one region (with timeouts, so a
 * connection that went quiet fails and is retried instead of hanging the follower), the
 * workflow's tables when their variables are set, and the one outage notice their calls report to.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import type { ApprovalStore } from '../../stores/approval-store';
import { awsSdkClient, TERMINAL_AWS_TIMEOUTS } from '../../stores/aws-client-config';
import { DynamoDbApprovalStore } from '../../stores/dynamodb-approval-store';
import { DynamoDbJobLock } from '../../stores/dynamodb-job-lock';
import type { JobLock } from '../../stores/job-lock';
import { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../../stores/table-env';
import { type AwsRetryOptions, patient } from './aws-call';
import { OutageNotice } from './outage-notice';
import { type SfnCalls, sfnCalls } from './sfn-calls';

/** What a session is opened with (the AWS parts of the engine's requests). */
export interface AwsSessionOptions {
  readonly region: string;
  /** Injected clients (tests). @default - SDK clients for `region`, with the default credentials chain */
  readonly clients?: { readonly sfn?: SFNClient; readonly dynamodb?: DynamoDBClient };
  /** @default - `$NOMAD_RESTART_APPROVALS_TABLE`; unset: questions are read from execution history */
  readonly approvalsTable?: string;
  /** @default - `$NOMAD_RESTART_LOCK_TABLE`; unset: an interrupt stops the execution at once */
  readonly lockTable?: string;
  /** Where the table variables are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Backoff of failed AWS calls; a start gives up after its `retries`. @default 5 retries from 250 ms */
  readonly retry?: AwsRetryOptions;
  /** Prints one line on stderr. */
  readonly printError: (message: string) => void;
}

/** The clients and stores of one command run. */
export interface AwsSession {
  readonly calls: SfnCalls;
  readonly approvals: ApprovalStore | undefined;
  readonly lock: JobLock | undefined;
  /** Names the execution followed in the outage line. */
  readonly notice: OutageNotice;
  /** The policy of table calls made while the execution may run (patient, reporting outages). */
  readonly patientRetry: AwsRetryOptions;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** Opens a session; no AWS call is made yet. */
export function openAwsSession(options: AwsSessionOptions): AwsSession {
  const { region } = options;
  const env = options.env ?? process.env;
  const notice = new OutageNotice(options.printError);
  const retry = options.retry ?? {};
  const sfn = options.clients?.sfn ?? awsSdkClient(SFNClient, { region }, TERMINAL_AWS_TIMEOUTS);
  const approvalsTable = options.approvalsTable ?? nonEmpty(env[APPROVALS_TABLE_ENV]);
  const lockTable = options.lockTable ?? nonEmpty(env[LOCK_TABLE_ENV]);
  let dynamodb = options.clients?.dynamodb;
  const ddb = () => {
    dynamodb ??= awsSdkClient(DynamoDBClient, { region }, TERMINAL_AWS_TIMEOUTS);
    return dynamodb;
  };
  return {
    calls: sfnCalls(sfn, retry, notice.onRetry),
    approvals: approvalsTable === undefined ? undefined : new DynamoDbApprovalStore(ddb(), approvalsTable),
    lock: lockTable === undefined ? undefined : new DynamoDbJobLock(ddb(), lockTable),
    notice,
    patientRetry: patient({ ...retry, onRetry: notice.onRetry }),
  };
}
