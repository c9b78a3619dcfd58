/**
 * `nomad-restart approve <id> [yes|no|<duration>]` and `nomad-restart deny <id>`: answer a
 * question a restart on AWS waits on, through the same decision as chat and a terminal following
 * the run (`lib/approvals/decide.ts`: the reply read as Nomad reads it, a conditional write on the
 * question, then `SendTaskSuccess`). The first answer wins; a later one changes nothing and is
 * told who decided what and when (exit 1), as are an unknown id, a run that had ended, and a
 * reply the question does not take.
 */
import { randomUUID } from 'node:crypto';
import { type DecideOutcome, decideQuestion } from '../../approvals/decide';
import { ApprovalError } from '../../approvals/errors';
import { decisionLine } from '../../approvals/question-message';
import {
  awsTaskAnswerClient,
  RemoteEngineError,
  retryTransient,
  toAwsCallError,
} from '../../engines/aws/index';
import { goQuote } from '../../go/quote';
import { operatorName } from '../terminal/operator';
import { type ApprovalCommand, type ApprovalCommandContext, runApprovalCommand } from './approval-command';
import { approvalsTableName } from './approvals-access';
import { parseCommandFlags } from './command-flags';
import { CommandArgumentError } from './errors';

const NEEDS = `  Needs NOMAD_RESTART_APPROVALS_TABLE (the stack output ApprovalsTableName)
  and AWS credentials (AWS_REGION the table's region) allowed dynamodb:GetItem
  and dynamodb:UpdateItem on the table and states:SendTaskSuccess on the state
  machine.`;

/** The usage text of `approve`. */
export const APPROVE_USAGE = `Usage: nomad-restart approve <id> [yes|no|<duration>]

  Answer a question a restart running on AWS Step Functions waits on (ids:
  'nomad-restart questions'), read as 'nomad job restart' reads a typed
  answer: 'yes' (the default) proceeds, 'no' cancels the restart, and for a
  question asked between batches (-batch-wait ask) a duration such as 30s
  proceeds and waits that long between the remaining batches. The first answer
  wins, whether given here, in chat or at a terminal following the run; a later
  one changes nothing and is told who decided what and when (exit 1).

${NEEDS}
`;

/** The usage text of `deny`. */
export const DENY_USAGE = `Usage: nomad-restart deny <id>

  Answer "no" to a question a restart running on AWS Step Functions waits on
  (ids: 'nomad-restart questions'): the restart is canceled, as after "n" at
  its terminal. Same as 'nomad-restart approve <id> no'.

${NEEDS}
`;

interface AnswerLine {
  readonly table: string;
  readonly approvalId: string;
  readonly reply: string;
}

/** `approve` or `deny`: which replies the command line may give. */
function answerCommand(name: 'approve' | 'deny'): ApprovalCommand<AnswerLine> {
  const approve = name === 'approve';
  return {
    usage: approve ? APPROVE_USAGE : DENY_USAGE,

    async parse(args, env) {
      const flags = parseCommandFlags(args, {});
      const [approvalId, reply = approve ? 'yes' : 'no', ...extra] = flags.args;
      if (approvalId === undefined || extra.length > 0 || (!approve && flags.args.length > 1)) {
        throw new CommandArgumentError(
          approve
            ? 'This command takes one or two arguments: <id> [yes|no|<duration>]'
            : 'This command takes one argument: <id>',
        );
      }
      return { table: approvalsTableName(name, env), approvalId, reply };
    },

    async run({ approvalId, reply }, access, terminal) {
      const id = goQuote(approvalId);
      const what = `answering question ${id}`;
      const request = {
        approvalId,
        reply,
        answeredBy: operatorName(),
        via: 'terminal' as const,
        // Every try is the same answer: one that finds its own decision recorded delivers it.
        decisionId: randomUUID(),
      };
      const deps = { approvals: access.approvals, sfn: awsTaskAnswerClient(access.sfn, what, {}) };
      const stderr = (text: string) => terminal.write({ stream: 'stderr', text });
      let outcome: DecideOutcome;
      try {
        outcome = await retryTransient(() => decideQuestion(deps, request));
      } catch (error) {
        // Nomad's refusal of the reply, an unknown id, or Step Functions' own failure: said as is.
        if (error instanceof ApprovalError || error instanceof RemoteEngineError) {
          stderr(error.message);
          return 1;
        }
        throw toAwsCallError({ action: 'dynamodb:GetItem and dynamodb:UpdateItem', what }, error);
      }
      if (outcome.kind === 'already-decided') {
        stderr(`Question ${id} was already decided: ${decisionLine(outcome.decision)}`);
        return 1;
      }
      const { jobId, namespace } = outcome.approval;
      const text = `Question ${id} (job ${goQuote(jobId)} in namespace ${goQuote(namespace)}): ${decisionLine(outcome.decision)}`;
      if (outcome.kind === 'run-finished') {
        stderr(text);
        return 1;
      }
      terminal.write({ stream: 'stdout', text });
      return 0;
    },
  };
}

/** Runs `approve` (exit 0 when this answer decided the question, else 1). */
export function runApproveCommand(args: readonly string[], ctx: ApprovalCommandContext): Promise<number> {
  return runApprovalCommand(answerCommand('approve'), args, ctx);
}

/** Runs `deny` (exit 0 when this "no" decided the question, else 1). */
export function runDenyCommand(args: readonly string[], ctx: ApprovalCommandContext): Promise<number> {
  return runApprovalCommand(answerCommand('deny'), args, ctx);
}
