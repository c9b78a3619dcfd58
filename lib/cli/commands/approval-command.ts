/**
 * What `questions`, `approve` and `deny` share: their terminal, a command line parsed Go-`flag`
 * style whose errors print the command's usage, the approvals table opened once the line is
 * valid, and an AWS failure printed as one line (what was being done, AWS's code and message, and
 * the IAM action when access was denied) with exit code 1.
 */
import { RemoteEngineError } from '../../engines/aws/errors';
import { createTerminal, type Terminal } from '../terminal/terminal';
import { type ApprovalsAccess, type ApprovalsClients, openApprovalsAccess } from './approvals-access';
import { CliUsageError } from './errors';
import type { RunContext } from './run-job-restart';

/** The context of the approval commands: a test may hand in its own SDK clients. */
export type ApprovalCommandContext = RunContext & { readonly awsClients?: ApprovalsClients };

/** Where a command finds the table. */
export interface ApprovalCommandLine {
  readonly table: string;
  /** @default - the SDK's own (`AWS_REGION`, the profile) */
  readonly region?: string | undefined;
}

/** One approval command: its usage text, its parser, and what it does with the table. */
export interface ApprovalCommand<L extends ApprovalCommandLine> {
  readonly usage: string;
  /** @throws CliUsageError for a bad command line (or `-help`) */
  parse(args: readonly string[], env: NodeJS.ProcessEnv): Promise<L>;
  run(line: L, access: ApprovalsAccess, terminal: Terminal): Promise<number>;
}

/** Runs `command` and returns its exit code. */
export async function runApprovalCommand<L extends ApprovalCommandLine>(
  command: ApprovalCommand<L>,
  args: readonly string[],
  ctx: ApprovalCommandContext,
): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: L;
    try {
      line = await command.parse(args, ctx.env);
    } catch (error) {
      if (!(error instanceof CliUsageError)) throw error;
      if (error.message !== '') terminal.write({ stream: 'stderr', text: error.message });
      terminal.write({ stream: error.exitCode === 0 ? 'stdout' : 'stderr', text: command.usage });
      return error.exitCode;
    }
    try {
      const access = await openApprovalsAccess(line.table, line.region, ctx.awsClients);
      try {
        return await command.run(line, access, terminal);
      } finally {
        access.close();
      }
    } catch (error) {
      if (!(error instanceof RemoteEngineError)) throw error;
      terminal.write({ stream: 'stderr', text: error.message });
      return 1;
    }
  } finally {
    terminal.close();
  }
}
