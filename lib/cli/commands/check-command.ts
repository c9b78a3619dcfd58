/**
 * `nomad-restart check -state-machine-arn <arn>`: run once after deploying, it proves against the
 * real deployment what no local evaluator can decide, and prints one line per finding: `PASS
 * <what>`, or `FAIL <what>: <why>` with the fix on the next line; exit 0 only when all passed.
 * The checks live in `lib/engines/aws/check/`; this module parses the line, opens the clients and
 * prints.
 */
import type { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { CheckResult } from '../../engines/aws/check/check-result';
import { RemoteEngineError } from '../../engines/aws/errors';
import { parseStateMachineArn, type StateMachineArn } from '../../engines/aws/state-machine-arn';
import { goQuote } from '../../go/quote';
import { awsSdkClient, TERMINAL_AWS_TIMEOUTS } from '../../stores/aws-client-config';
import type { ReachTarget } from '../../workflow/deployment-check';
import { operatorName } from '../terminal/operator';
import { createTerminal, type Terminal } from '../terminal/terminal';
import { parseCommandFlags } from './command-flags';
import { CliUsageError, CommandArgumentError } from './errors';
import type { RunContext } from './run-job-restart';

/** The usage text of `check`. */
export const CHECK_USAGE = `Usage: nomad-restart check [options]

  Check a deployed stack once, against AWS, for what no local check can
  decide, and print PASS or FAIL with the fix for each finding:

  - the task-token answer path: a deployment check execution
    ({"deploymentCheck": true}, which touches no job) parks one question
    through the ask function; this identity answers it with
    states:SendTaskSuccess; the execution ends with the answer.
  - with -job: Nomad's (and Consul's) reachability from inside the deployment.
    Before its question the check execution reads the job, and its
    allocations, through the plan function, which runs where every function
    that calls Nomad runs (VPC, subnets, security groups, token and TLS
    secrets); when the job declares Consul services, it also reads the first
    one's checks from Consul. Reads only: no write, no lock.
  - the alarms: every alarm of the stack has an action (an alarm without one
    notifies nobody).

  Exits 0 when every check passed, 1 otherwise. Needs AWS credentials allowed
  states:StartExecution on the state machine, states:GetExecutionHistory and
  states:StopExecution on its executions, states:SendTaskSuccess, and
  cloudwatch:DescribeAlarms (grantOperate(role, 'check') grants them).

Options:

  -state-machine-arn=<arn>
    The deployed state machine (the stack output StateMachineArn). Required.

  -stack-name=<name>
    The stack whose alarms are read (those named <name>-...). Defaults to the
    state machine's name without its "-Restart" suffix.

  -job=<job ID>
    A job the deployment's functions read from Nomad, to prove they reach it
    and their token may read it. Without it, Nomad is not checked.

  -namespace=<namespace>
    The job's namespace (with -job). Defaults to the functions' own.
`;

/** The workflow's construct id in the stack: the state machine is named `<stack>-Restart`. */
const WORKFLOW_SUFFIX = '-Restart';

/** SDK clients a test hands in instead of the ones made here. */
export interface CheckClients {
  readonly sfn?: SFNClient;
  readonly cloudwatch?: CloudWatchClient;
}

/** The context of `check`: a test may hand in its own SDK clients and timings. */
export type CheckCommandContext = RunContext & {
  readonly awsClients?: CheckClients;
  /** Between two reads of the check execution's history. @default 2000 */
  readonly pollMs?: number;
  /** How long the check's question and its end may take. @default 120000 */
  readonly waitMs?: number;
};

interface CheckLine {
  readonly stateMachine: StateMachineArn;
  readonly stackName: string | undefined;
  readonly reach: ReachTarget | undefined;
}

function parseReach(job: string | undefined, namespace: string | undefined): ReachTarget | undefined {
  if (job === undefined) {
    if (namespace !== undefined)
      throw new CommandArgumentError('-namespace is the namespace of -job: give -job too');
    return undefined;
  }
  if (job.trim() === '')
    throw new CommandArgumentError(`Invalid -job value ${goQuote(job)}: expected a job ID`);
  return namespace === undefined || namespace === '' ? { job } : { job, namespace };
}

function parseCheckArgs(args: readonly string[]): CheckLine {
  const flags = parseCommandFlags(args, {
    'state-machine-arn': 'string',
    'stack-name': 'string',
    job: 'string',
    namespace: 'string',
  });
  if (flags.args.length > 0) throw new CommandArgumentError('This command takes no arguments');
  const arn = flags.strings.get('state-machine-arn');
  if (arn === undefined || arn === '')
    throw new CommandArgumentError('The check command requires -state-machine-arn');
  let stateMachine: StateMachineArn;
  try {
    stateMachine = parseStateMachineArn(arn);
  } catch (error) {
    if (error instanceof RemoteEngineError) throw new CommandArgumentError(error.message);
    throw error;
  }
  const given = flags.strings.get('stack-name');
  const derived = stateMachine.name.endsWith(WORKFLOW_SUFFIX)
    ? stateMachine.name.slice(0, -WORKFLOW_SUFFIX.length)
    : undefined;
  const reach = parseReach(flags.strings.get('job'), flags.strings.get('namespace'));
  return { stateMachine, stackName: given ?? derived, reach };
}

/** One finding as printed: `PASS <what>`, or `FAIL <what>: <why>` and its fix. */
export function formatCheckResult(result: CheckResult): string {
  return result.passed ? `PASS ${result.what}` : `FAIL ${result.what}: ${result.why}\n  fix: ${result.fix}`;
}

async function runChecks(line: CheckLine, ctx: CheckCommandContext, terminal: Terminal): Promise<number> {
  const [{ SFNClient }, { CloudWatchClient }, aws, { checkAnswerPath }, { checkAlarmActions }] =
    await Promise.all([
      import('@aws-sdk/client-sfn'),
      import('@aws-sdk/client-cloudwatch'),
      import('../../engines/aws/index'),
      import('../../engines/aws/check/answer-path'),
      import('../../engines/aws/check/alarm-actions'),
    ]);
  const region = line.stateMachine.region;
  const sfn = ctx.awsClients?.sfn ?? awsSdkClient(SFNClient, { region }, TERMINAL_AWS_TIMEOUTS);
  const cloudwatch =
    ctx.awsClients?.cloudwatch ?? awsSdkClient(CloudWatchClient, { region }, TERMINAL_AWS_TIMEOUTS);
  const results: CheckResult[] = [];
  const print = (result: CheckResult) => {
    results.push(result);
    terminal.write({ stream: 'stdout', text: formatCheckResult(result) });
  };
  try {
    for (const result of await checkAnswerPath({
      sfn: aws.sfnCalls(sfn, { retries: 2 }),
      stateMachine: line.stateMachine,
      answeredBy: operatorName(ctx.env),
      ...(line.reach === undefined ? {} : { reach: line.reach }),
      ...(ctx.pollMs === undefined ? {} : { pollMs: ctx.pollMs }),
      ...(ctx.waitMs === undefined ? {} : { waitMs: ctx.waitMs }),
    }))
      print(result);
    print(
      line.stackName === undefined
        ? {
            passed: false,
            what: 'the alarms of the stack notify someone',
            why: `the stack's name cannot be told from the state machine's name ${JSON.stringify(line.stateMachine.name)}`,
            fix: 'pass -stack-name <the name the stack was deployed under>',
          }
        : await checkAlarmActions(cloudwatch, line.stackName),
    );
  } finally {
    if (ctx.awsClients?.sfn === undefined) sfn.destroy();
    if (ctx.awsClients?.cloudwatch === undefined) cloudwatch.destroy();
  }
  const failures = results.filter((r) => !r.passed).length;
  terminal.write({
    stream: failures === 0 ? 'stdout' : 'stderr',
    text:
      failures === 0
        ? `All ${results.length} checks passed`
        : `${failures} of ${results.length} checks failed`,
  });
  return failures === 0 ? 0 : 1;
}

/** Runs `check`; exit code 0 when every check passed, else 1. */
export async function runCheckCommand(args: readonly string[], ctx: CheckCommandContext): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: CheckLine;
    try {
      line = parseCheckArgs(args);
    } catch (error) {
      if (!(error instanceof CliUsageError)) throw error;
      if (error.message !== '') terminal.write({ stream: 'stderr', text: error.message });
      terminal.write({ stream: error.exitCode === 0 ? 'stdout' : 'stderr', text: CHECK_USAGE });
      return error.exitCode;
    }
    return await runChecks(line, ctx, terminal);
  } finally {
    terminal.close();
  }
}
