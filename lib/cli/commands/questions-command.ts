/**
 * `nomad-restart questions [-state-machine-arn <arn>]`: the questions restarts running on AWS wait
 * on, read from the approvals table's sparse pending index (which holds no task token), for
 * `approve` and `deny` to answer by id.
 */
import { awsCall, parseStateMachineArn, RemoteEngineError } from '../../engines/aws/index';
import { goQuote } from '../../go/quote';
import { type ApprovalCommand, type ApprovalCommandContext, runApprovalCommand } from './approval-command';
import { approvalsTableName } from './approvals-access';
import { parseCommandFlags } from './command-flags';
import { CommandArgumentError } from './errors';
import { formatPendingQuestions } from './pending-table';

/** The usage text of `questions`. */
export const QUESTIONS_USAGE = `Usage: nomad-restart questions [options]

  List the questions restarts running on AWS Step Functions wait on
  (-batch-wait ask, -on-error ask, the multi-region question): id, job,
  namespace, question, age and execution, oldest first. Answer one with
  'nomad-restart approve <id>' or 'nomad-restart deny <id>'.

  Reads the approvals table named by NOMAD_RESTART_APPROVALS_TABLE (the stack
  output ApprovalsTableName) with the default AWS credentials: dynamodb:Scan on
  its pending-index, or dynamodb:Query with -state-machine-arn.

Options:

  -state-machine-arn=<arn>
    Only the questions of this state machine's executions, read in its region.
`;

interface QuestionsLine {
  readonly table: string;
  readonly region: string | undefined;
  readonly stateMachineArn: string | undefined;
}

const questions: ApprovalCommand<QuestionsLine> = {
  usage: QUESTIONS_USAGE,

  async parse(args, env) {
    const flags = parseCommandFlags(args, { 'state-machine-arn': 'string' });
    if (flags.args.length > 0) throw new CommandArgumentError('This command takes no arguments');
    const stateMachineArn = flags.strings.get('state-machine-arn');
    let region: string | undefined;
    if (stateMachineArn !== undefined) {
      try {
        region = parseStateMachineArn(stateMachineArn).region;
      } catch (error) {
        if (error instanceof RemoteEngineError) throw new CommandArgumentError(error.message);
        throw error;
      }
    }
    return { table: approvalsTableName('questions', env), region, stateMachineArn };
  },

  async run({ table, stateMachineArn }, access, terminal) {
    const pending = await awsCall(
      stateMachineArn === undefined
        ? { action: 'dynamodb:Scan', what: `listing the pending questions in table ${goQuote(table)}` }
        : { action: 'dynamodb:Query', what: `listing the pending questions of ${goQuote(stateMachineArn)}` },
      () =>
        stateMachineArn === undefined
          ? access.approvals.listAllPending()
          : access.approvals.listPending({ stateMachineArn }),
    );
    terminal.write({ stream: 'stdout', text: formatPendingQuestions(pending, Date.now()) });
    return 0;
  },
};

/** Runs `questions`; exit code 0, or 1 when the table cannot be read. */
export function runQuestionsCommand(args: readonly string[], ctx: ApprovalCommandContext): Promise<number> {
  return runApprovalCommand(questions, args, ctx);
}
