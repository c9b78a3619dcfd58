/**
 * `nomad-restart pause|resume|stop [options] <job | execution ARN>`: a run-control request
 * (lib/control/requests.ts) for a running restart, acted on at its next safe point
 * (docs/run-control.md). A job is reached through Nomad (lib/cli/commands/control-nomad.ts), an
 * execution through the stack's tables (lib/engines/aws/control-run.ts). The line is checked
 * before anything is read; a refusal is one line on stderr and exit 1, nothing written.
 */
import { ApprovalError } from '../../approvals/errors';
import { decisionLine } from '../../approvals/question-message';
import type { AnsweringRequest, RunControlOutcome } from '../../approvals/run-control';
import { RunControlError } from '../../control/errors';
import type { ControlRequest, ControlVerb } from '../../control/requests';
import type { AwsControlOutcome } from '../../engines/aws/control-run';
import { RemoteEngineError } from '../../engines/aws/errors';
import { parseExecutionArn } from '../../engines/aws/state-machine-arn';
import { goQuote } from '../../go/quote';
import type { LockKey } from '../../stores/job-lock';
import { APPROVALS_TABLE_ENV, LOCK_TABLE_ENV } from '../../stores/table-env';
import { operatorName } from '../terminal/operator';
import { createTerminal, type Terminal } from '../terminal/terminal';
import type { ApprovalsClients } from './approvals-access';
import { reportCommandUsage } from './command-flags';
import { type ControlLine, parseControlArgs } from './control-args';
import { controlUsage } from './control-help';
import { CliUsageError, CommandArgumentError } from './errors';
import type { RunContext } from './run-job-restart';

/** The context of the control commands: a test may hand in its own SDK clients. */
export type ControlCommandContext = RunContext & { readonly awsClients?: ApprovalsClients };

/** What the request asks, in the run's words, for the confirmation line. */
const WILL: Readonly<Record<ControlVerb, string>> = {
  pause: 'it pauses before its next batch and asks whether to resume',
  resume: 'it goes on with its next batch',
  stop: 'it stops before its next batch, canceled as after a "no"',
};

const VERB_NOUN: Readonly<Record<ControlVerb, string>> = { pause: 'Pause', resume: 'Resume', stop: 'Stop' };

function requestedLine(request: ControlRequest, key: LockKey, runId: string): string {
  return (
    `${VERB_NOUN[request.verb]} requested by ${request.requestedBy} for the restart of job ${goQuote(key.jobId)} ` +
    `in namespace ${goQuote(key.namespace)} (run ${goQuote(runId)}): ${WILL[request.verb]}`
  );
}

/** The lines of an AWS request's outcome, and the exit code. */
function awsOutcome(outcome: AwsControlOutcome, request: ControlRequest, terminal: Terminal): number {
  if (outcome.kind === 'fleet') return fleetOutcome(outcome, request, terminal);
  const { runId } = outcome;
  // A run named by an execution is a one-job run: it holds one job.
  const [key] = outcome.jobs;
  if (outcome.kind === 'recorded') {
    terminal.write({ stream: 'stdout', text: requestedLine(request, key, runId) });
    return 0;
  }
  if (outcome.kind === 'withdrawn') {
    terminal.write({
      stream: 'stdout',
      text: `Pause withdrawn by ${request.requestedBy} for the restart of job ${goQuote(key.jobId)} in namespace ${goQuote(key.namespace)} (run ${goQuote(runId)}) before the run reached it: it goes on`,
    });
    return 0;
  }
  return answeredOutcome(outcome, terminal);
}

/** The line of a parked run's answered pause question, and the exit code. */
function answeredOutcome(
  outcome: Extract<RunControlOutcome, { kind: 'answered' }>,
  terminal: Terminal,
): number {
  const [key] = outcome.jobs;
  const answer = outcome.outcome;
  if (answer.kind === 'already-decided') {
    terminal.write({
      stream: 'stderr',
      text: `Its pause question was already decided: ${decisionLine(answer.decision)}`,
    });
    return 1;
  }
  const text = `Pause question ${goQuote(answer.approval.approvalId)} (job ${goQuote(key.jobId)} in namespace ${goQuote(key.namespace)}): ${decisionLine(answer.decision)}`;
  terminal.write({ stream: answer.kind === 'decided' ? 'stdout' : 'stderr', text });
  return answer.kind === 'decided' ? 0 : 1;
}

/** What a fleet's request does to each of its jobs, for the confirmation line. */
const FLEET_WILL: Readonly<Record<ControlVerb, string>> = {
  pause: 'each of its jobs pauses before its next batch and asks whether to resume',
  resume: 'its jobs go on with their next batch',
  stop: 'each of its jobs stops before its next batch, canceled as after a "no"',
};

/** The lines of a fleet's request: the fleet's, then one per parked job answered; the exit code. */
function fleetOutcome(
  outcome: Extract<AwsControlOutcome, { kind: 'fleet' }>,
  request: ControlRequest,
  terminal: Terminal,
): number {
  terminal.write({
    stream: 'stdout',
    text: `${VERB_NOUN[request.verb]} requested by ${request.requestedBy} for fleet run ${goQuote(outcome.fleetRunId)}: ${FLEET_WILL[request.verb]}`,
  });
  let exitCode = 0;
  for (const job of outcome.fleet.jobs) {
    // A parked job is answered; one that was not parked already obeys the fleet's request.
    if (job.kind === 'answered') exitCode = Math.max(exitCode, answeredOutcome(job, terminal));
  }
  return exitCode;
}

/** The request for an execution's run, through the stack's tables. */
async function requestOnAws(
  executionArn: string,
  request: AnsweringRequest,
  ctx: ControlCommandContext,
  terminal: Terminal,
): Promise<number> {
  const lockTable = ctx.env[LOCK_TABLE_ENV] ?? '';
  if (lockTable === '')
    throw new CommandArgumentError(
      `nomad-restart ${request.verb} <execution ARN> records the request on the job's lock: set ${LOCK_TABLE_ENV} to the lock table (the stack output LockTableName)`,
    );
  const approvalsTable = ctx.env[APPROVALS_TABLE_ENV] ?? '';
  const [{ SFNClient }, { DynamoDBClient }, aws, config, { DynamoDbJobLock }, { DynamoDbApprovalStore }] =
    await Promise.all([
      import('@aws-sdk/client-sfn'),
      import('@aws-sdk/client-dynamodb'),
      import('../../engines/aws/index'),
      import('../../stores/aws-client-config'),
      import('../../stores/dynamodb-job-lock'),
      import('../../stores/dynamodb-approval-store'),
    ]);
  const { region } = parseExecutionArn(executionArn);
  const client = <C>(given: C | undefined, make: () => C) => given ?? make();
  const sfn = client(ctx.awsClients?.sfn, () =>
    config.awsSdkClient(SFNClient, { region }, config.TERMINAL_AWS_TIMEOUTS),
  );
  const dynamodb = client(ctx.awsClients?.dynamodb, () =>
    config.awsSdkClient(DynamoDBClient, { region }, config.TERMINAL_AWS_TIMEOUTS),
  );
  try {
    const outcome = await aws.controlAwsRun(
      {
        calls: aws.sfnCalls(sfn, { retries: 2 }),
        lock: new DynamoDbJobLock(dynamodb, lockTable),
        approvals: approvalsTable === '' ? undefined : new DynamoDbApprovalStore(dynamodb, approvalsTable),
        answerClient: (arn) =>
          aws.awsTaskAnswerClient(sfn, `answering the pause question of execution ${goQuote(arn)}`, {}),
      },
      executionArn,
      request,
    );
    return awsOutcome(outcome, request, terminal);
  } finally {
    if (ctx.awsClients?.sfn === undefined) sfn.destroy();
    if (ctx.awsClients?.dynamodb === undefined) dynamodb.destroy();
  }
}

/** The request for the run holding a job, through Nomad (or its tables, for an AWS run when they are known). */
async function requestForJob(
  line: Extract<ControlLine, { form: 'job' }>,
  request: AnsweringRequest,
  ctx: ControlCommandContext,
  terminal: Terminal,
): Promise<number> {
  const [{ NomadClient }, control] = await Promise.all([
    import('../../nomad/client'),
    import('./control-nomad'),
  ]);
  const nomad = NomadClient.create(line.nomad);
  try {
    const holder = await control.lockHolder(nomad, line.key);
    if (holder.engine === 'aws' && (ctx.env[LOCK_TABLE_ENV] ?? '') !== '')
      return await requestOnAws(holder.runId, request, ctx, terminal);
    await control.requestThroughNomad(nomad, line.key, holder, request);
    terminal.write({ stream: 'stdout', text: requestedLine(request, line.key, holder.runId) });
    return 0;
  } finally {
    await nomad.close();
  }
}

/** Runs `pause`, `resume` or `stop` and returns the exit code. */
export async function runControlCommand(
  verb: ControlVerb,
  args: readonly string[],
  ctx: ControlCommandContext,
): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: ControlLine;
    try {
      line = parseControlArgs(args, ctx.env);
    } catch (error) {
      if (!(error instanceof CliUsageError)) throw error;
      return reportCommandUsage(error, terminal, { help: controlUsage(verb), command: verb });
    }
    const request: AnsweringRequest = {
      verb,
      requestedBy: operatorName(ctx.env),
      via: 'terminal',
      at: Date.now(),
    };
    try {
      return line.form === 'job'
        ? await requestForJob(line, request, ctx, terminal)
        : await requestOnAws(line.executionArn, request, ctx, terminal);
    } catch (error) {
      if (error instanceof CommandArgumentError) {
        terminal.write({ stream: 'stderr', text: error.message });
        return 1;
      }
      if (
        !(
          error instanceof RunControlError ||
          error instanceof RemoteEngineError ||
          error instanceof ApprovalError
        )
      )
        throw error;
      terminal.write({ stream: 'stderr', text: error.message });
      return 1;
    }
  } finally {
    terminal.close();
  }
}
