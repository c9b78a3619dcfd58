/**
 * What `questions`, `approve` and `deny` reach AWS with: the approvals table named by
 * `NOMAD_RESTART_APPROVALS_TABLE` (the stack output `ApprovalsTableName`) and Step Functions, with
 * the default credentials chain, in the region of `-state-machine-arn` when given, else the SDK's
 * own (`AWS_REGION`, the profile). Only these commands load this module (and the AWS SDK with it).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { RemoteInputError } from '../../engines/aws/errors';
import { goQuote } from '../../go/quote';
import type { ApprovalStore } from '../../stores/approval-store';
import { awsSdkClient, TERMINAL_AWS_TIMEOUTS } from '../../stores/aws-client-config';
import { DynamoDbApprovalStore } from '../../stores/dynamodb-approval-store';
import { APPROVALS_TABLE_ENV } from '../../stores/table-env';
import { CommandArgumentError } from './errors';

/** SDK clients given by a test instead of the ones made here. */
export interface ApprovalsClients {
  readonly dynamodb?: DynamoDBClient;
  readonly sfn?: SFNClient;
}

/** The table and Step Functions, as one command uses them. */
export interface ApprovalsAccess {
  readonly approvals: ApprovalStore;
  readonly sfn: SFNClient;
  /** Closes the clients made here. */
  close(): void;
}

/**
 * The approvals table's name from the environment.
 * @throws CommandArgumentError naming the variable when it is not set
 */
export function approvalsTableName(command: string, env: NodeJS.ProcessEnv): string {
  const table = env[APPROVALS_TABLE_ENV] ?? '';
  if (table !== '') return table;
  throw new CommandArgumentError(
    `nomad-restart ${command} reads the approvals table: set ${APPROVALS_TABLE_ENV} to its name (the stack output ApprovalsTableName)`,
  );
}

/**
 * Opens the clients (no AWS call is made yet).
 * @throws RemoteInputError when no region is given or configured
 */
export async function openApprovalsAccess(
  table: string,
  region: string | undefined,
  clients: ApprovalsClients = {},
): Promise<ApprovalsAccess> {
  const config = region === undefined ? {} : { region };
  const dynamodb = clients.dynamodb ?? awsSdkClient(DynamoDBClient, config, TERMINAL_AWS_TIMEOUTS);
  const sfn = clients.sfn ?? awsSdkClient(SFNClient, config, TERMINAL_AWS_TIMEOUTS);
  try {
    await dynamodb.config.region();
  } catch (error) {
    throw new RemoteInputError(
      `No AWS region is configured: set AWS_REGION to the region of the approvals table ${goQuote(table)}`,
      { cause: error },
    );
  }
  return {
    approvals: new DynamoDbApprovalStore(dynamodb, table),
    sfn,
    close: () => {
      if (clients.dynamodb === undefined) dynamodb.destroy();
      if (clients.sfn === undefined) sfn.destroy();
    },
  };
}
