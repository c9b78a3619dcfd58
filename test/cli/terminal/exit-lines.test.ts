// Scenario: the same ends of a run, once on the local engine and once on AWS (`-engine=aws`,
// Step Functions faked with aws-sdk-client-mock), each read at the terminal as the command reads
// it: both print the same error line on stderr (Nomad's `<what failed>: <cause>` wording) and
// exit with the same code. A Task's error reaches AWS's history as Lambda's JSON cause and the
// local engine's as the plain message; a Fail state's cause is plain text on both.
import { GetExecutionHistoryCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { exitCodeOf } from '../../../lib/cli/terminal/exit-code';
import type { Terminal } from '../../../lib/cli/terminal/terminal';
import { runLocalExecution } from '../../../lib/engines/local/runner';
import { createFormatter } from '../../../lib/restart/format';
import { runCommand } from '../../e2e/helpers/run-command';
import { ev, FakeExecution } from '../../engines/aws/helpers/fake-history';

const sfn = mockClient(SFNClient);
const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart';
const EXEC = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:run-1';

/** How the run ends: a Task's error, a Fail state, or a Succeed state's output. */
type Ending =
  | { readonly kind: 'task-error'; readonly error: string; readonly message: string }
  | { readonly kind: 'fail-state'; readonly error: string; readonly cause: string }
  | { readonly kind: 'succeeded'; readonly output: object };

/** A one-state definition that ends as `ending` on the local engine. */
function definitionOf(ending: Ending): object {
  const state =
    ending.kind === 'task-error'
      ? {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: 'f' },
          End: true,
        }
      : ending.kind === 'fail-state'
        ? { Type: 'Fail', Error: ending.error, Cause: ending.cause }
        : { Type: 'Pass', Result: ending.output, End: true };
  return { StartAt: 'End', States: { End: state } };
}

/** The stderr and exit code of a local run that ends as `ending`. */
async function localRun(ending: Ending): Promise<{ stderr: string; code: number }> {
  const failing = async () => {
    if (ending.kind !== 'task-error') throw new Error('only a task-error ending runs a Task');
    throw Object.assign(new Error(ending.message), { name: ending.error });
  };
  const result = await runLocalExecution(definitionOf(ending), {
    input: {},
    taskHandlers: () => failing,
    validate: false,
  }).result;
  const lines: string[] = [];
  const terminal: Terminal = {
    interactive: false,
    reading: false,
    write: (line) => {
      if (line.stream === 'stderr') lines.push(`${line.text}\n`);
    },
    notice: () => {},
    read: async () => ({ kind: 'eof' }),
    interruptRead: () => {},
    close: () => {},
  };
  const code = exitCodeOf(result, createFormatter({ verbose: false, color: false }), terminal);
  return { stderr: lines.join(''), code };
}

/** The stderr and exit code of `nomad-restart -engine=aws` whose execution ends as `ending`. */
async function awsRun(ending: Ending): Promise<{ stderr: string; code: number }> {
  const last =
    ending.kind === 'task-error'
      ? ev.failed(ending.error, JSON.stringify({ errorType: ending.error, errorMessage: ending.message }))
      : ending.kind === 'fail-state'
        ? ev.failed(ending.error, ending.cause)
        : ev.succeeded(ending.output);
  const execution = new FakeExecution([[last]]);
  sfn.on(StartExecutionCommand).resolves({ executionArn: EXEC, startDate: new Date(0) });
  sfn.on(GetExecutionHistoryCommand).callsFake((input) => execution.read(input));
  const result = await runCommand(['-engine=aws', `-state-machine-arn=${MACHINE}`, '-yes', 'example'], {
    NOMAD_TOKEN: 'secret-token-7f3a',
    AWS_REGION: 'eu-west-1',
  });
  return { stderr: result.stderr, code: result.code ?? -1 };
}

/** The three ways a run ends: a Task's error, a Fail state, or success with the run's outcome. */
const taskError = (error: string, message: string): Ending => ({ kind: 'task-error', error, message });
const failState = (error: string, cause = ''): Ending => ({ kind: 'fail-state', error, cause });
const succeeded = (outcome: string, errorText = ''): Ending => ({
  kind: 'succeeded',
  output: { outcome, errorText },
});

/** One ending, and what both engines print on stderr and exit with after it. */
function row(name: string, ending: Ending, stderr: string, code: number) {
  return { name, ending, stderr, code };
}

describe('the end of a run at the terminal', () => {
  afterEach(() => sfn.reset());

  it.each([
    row(
      'a step error Nomad words (JobNotFound)',
      taskError('JobNotFound', 'No job(s) with prefix or ID "x" found'),
      'No job(s) with prefix or ID "x" found\n',
      1,
    ),
    row('a Fail state without a cause (InvalidInput)', failState('InvalidInput'), 'InvalidInput\n', 1),
    row(
      'an error no step words',
      taskError('TypeError', 'x is not a function'),
      'Restart failed: TypeError: x is not a function\n',
      1,
    ),
    row('an error without a cause', failState('States.Runtime'), 'Restart failed: States.Runtime\n', 1),
    row('a confirmed interrupt (Canceled)', failState('Canceled', 'Canceling job restart process'), '', 0),
    row('errors the summary has printed (RestartFailed)', failState('RestartFailed', 'errors'), '', 1),
    row('a summary with errors', succeeded('failed', 'x'), '', 1),
    row('a success', succeeded('succeeded'), '', 0),
  ])('prints the same line for $name on both engines', async ({ ending, stderr, code }) => {
    // Act
    const local = await localRun(ending);
    const aws = await awsRun(ending);

    // Assert
    expect(local).toEqual(aws);
    expect(local).toEqual({ stderr, code });
  });
});
