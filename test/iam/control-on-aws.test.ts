/**
 * Scenario: a run on the AWS stores (the lock and approvals tables on dynalite, every handler's
 * call checked against its role), three batches of one allocation, steered by the real
 * `nomad-restart pause|resume|stop <execution ARN>` command, which reaches the tables through the
 * SDK and Step Functions through a stand-in answering as the deployed one would (the execution's
 * start input; SendTaskSuccess completing the run's task token). Paused after the first batch, the
 * run parks its pause question in the approvals table at its next safe point and restarts nothing
 * until `resume` answers it; `stop` while paused ends it canceled, its lock released. Its batches
 * take a second on the steps' clock: a run reads its request at most once a second.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  SendTaskSuccessCommand,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { runControlCommand } from '../../lib/cli/commands/control-command';
import { operatorName } from '../../lib/cli/terminal/operator';
import type { ControlVerb } from '../../lib/control/requests';
import type { InvocationInterceptor } from '../../lib/engines/local/engine';
import { LocalTaskTokenCallbacks } from '../../lib/engines/local/task-token-callbacks';
import type { ProgressEvent } from '../../lib/restart/events';
import { TaskStates } from '../../lib/workflow/state-names';
import { fakeTerminal } from '../engines/aws/helpers/fixtures';
import { batchClock, SECOND_BATCHES_MS } from '../engines/local/helpers/batch-clock';
import { untilWaiting } from '../engines/local/helpers/task-token-answers';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob } from '../steps/helpers/harness';
import { useEmulatedAws } from './helpers/emulated-aws';

const aws = useEmulatedAws();
const harness = harnessPerTest();
const KEY = { namespace: 'default', jobId: 'web' };
const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;
/**
 * The ARN the operator gives: a continue-as-new execution of the run. The local engine names its
 * executions in a placeholder region (`local`), which no AWS ARN has; a continued execution's input
 * names its run's first execution, so the command reaches the local run through it.
 */
/**
 * Runs a function outside every handler's context: the command runs on an operator's machine, so
 * its calls must not count as those of the function whose event or invocation set them off.
 */
const outsideFunctions = AsyncLocalStorage.snapshot();

const GIVEN = 'arn:aws:states:us-east-1:123456789012:execution:NomadRestart-Restart:web-continued-2';

/** Step Functions as the command meets it: the run's start input, and its task tokens completed. */
function stepFunctions(callbacks: LocalTaskTokenCallbacks, runId: () => Promise<string>): SFNClient {
  const send = async (command: unknown) => {
    if (command instanceof GetExecutionHistoryCommand && command.input.executionArn === GIVEN) {
      const continuation = { run: { runId: await runId(), executionNumber: 2 }, options: { job: 'web' } };
      return {
        events: [
          {
            id: 1,
            type: 'ExecutionStarted',
            executionStartedEventDetails: { input: JSON.stringify({ continuation }) },
          },
        ],
      };
    }
    if (command instanceof SendTaskSuccessCommand) {
      callbacks.sendTaskSuccess(String(command.input.taskToken), String(command.input.output));
      return {};
    }
    if (command instanceof DescribeExecutionCommand) return { status: 'RUNNING' };
    throw new Error(`unexpected ${String(command)}`);
  };
  return { send } as unknown as SFNClient;
}

const restarts = (h: Harness) =>
  h.sim.control.requestLog().filter((r) => r.method === 'PUT' && RESTART.test(r.path)).length;

/**
 * Runs `web` (three batches) with `first` sent after its first batch and `then` once it waits
 * on its pause question; what the commands said, and the restarts counted at each point.
 */
async function steeredRun(first: ControlVerb, then: ControlVerb) {
  const h = await harness.startRunning(simpleJob('web', 'service', 3));
  const callbacks = new LocalTaskTokenCallbacks();
  const dynamodb = new DynamoDBClient({});
  const sfn = stepFunctions(callbacks, async () => (await aws.lockHolder(KEY)) ?? 'no run holds web');
  const control = (verb: ControlVerb) => outsideFunctions(() => controlCommand(verb));
  const controlCommand = async (verb: ControlVerb) => {
    const tty = fakeTerminal();
    const code = await runControlCommand(verb, [GIVEN], {
      ...tty.streams,
      env: { NOMAD_RESTART_LOCK_TABLE: aws.lockTable, NOMAD_RESTART_APPROVALS_TABLE: aws.approvalsTable },
      awsClients: { dynamodb, sfn },
    });
    return { code, output: tty.output() };
  };
  const said: { code: number; output: string }[] = [];
  let decided = 0;
  const afterFirstBatch: InvocationInterceptor = async (state, invoke) => {
    const result = await invoke();
    if (state === TaskStates.decide && decided++ === 0) said.push(await control(first));
    return result;
  };
  const counted: Record<string, number> = {};
  let answered: Promise<void> | undefined;
  const onEvent = (event: ProgressEvent) => {
    if (event.type !== 'paused') return;
    counted['paused'] = restarts(h);
    answered = (async () => {
      await untilWaiting(callbacks);
      // Longer than a batch takes here: a run that did not hold would restart meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 500));
      counted['answered'] = restarts(h);
      said.push(await control(then));
    })();
  };
  try {
    const run = await runWorkflow(h, restartOptions('web', { batchSize: { value: 1, percent: false } }), {
      taskTokenCallbacks: callbacks,
      ...batchClock(SECOND_BATCHES_MS, afterFirstBatch),
      onEvent,
    });
    await answered;
    return { run, said, counted, restarted: restarts(h) };
  } finally {
    dynamodb.destroy();
  }
}

describe('pause, resume and stop of a run on the AWS stores, from the command', () => {
  it('pauses after the first batch, holds on its parked question, and finishes once resumed', async () => {
    // Act
    const { run, said, counted, restarted } = await steeredRun('pause', 'resume');

    // Assert
    expect(said.map((s) => s.code)).toEqual([0, 0]);
    expect(said[0]?.output).toContain('Pause requested by');
    expect(said[1]?.output).toMatch(
      /^Pause question "[^"]+" \(job "web" in namespace "default"\): .* answered "yes"/,
    );
    expect(counted).toEqual({ paused: 1, answered: 1 });
    const types = run.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['paused', 'resumed']));
    expect(run.events.find((e) => e.type === 'paused')).toMatchObject({
      request: { verb: 'pause', requestedBy: operatorName(), via: 'terminal' },
    });
    expect(run.exitCode).toBe(0);
    expect(restarted).toBe(3);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  }, 60_000);

  it('ends canceled when stopped on its pause question, its lock released', async () => {
    // Act
    const { run, said, counted, restarted } = await steeredRun('pause', 'stop');

    // Assert
    expect(said.map((s) => s.code)).toEqual([0, 0]);
    expect(said[1]?.output).toMatch(/answered "no"/);
    expect(counted).toEqual({ paused: 1, answered: 1 });
    expect(run.result.output).toMatchObject({ outcome: 'canceled' });
    expect(restarted).toBe(1);
    expect(await aws.lockHolder(KEY)).toBeUndefined();
  }, 60_000);
});
