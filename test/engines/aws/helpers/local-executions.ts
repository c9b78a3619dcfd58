/**
 * Runs what a {@link FakeStepFunctions} starts through the synthesized definition, the local
 * engine and the real handlers, so a test of a command that starts executions on AWS meets the
 * state machine that would be deployed: each state entered and left becomes its history event,
 * a task-token question its `TaskScheduled` (the token in its parameters, as Step Functions
 * records it) and `TaskSubmitted` once the ask handler has parked it, and `SendTaskSuccess`
 * completes the token. `StopExecution` aborts the run.
 */
import type { HistoryEventType } from '@aws-sdk/client-sfn';
import type { ConsulClientConfig } from '../../../../lib/consul/config';
import { runRestartLocally } from '../../../../lib/engines/local/engine';
import { LocalTaskTokenCallbacks } from '../../../../lib/engines/local/task-token-callbacks';
import type { NomadClientConfig } from '../../../../lib/nomad';
import type { RestartInput } from '../../../../lib/restart/input';
import type { FakeExecutionRecord, FakeStepFunctions } from './fake-step-functions';

/** Task tokens whose waits are written into the history of the execution that opened them. */
class RecordedTaskTokens extends LocalTaskTokenCallbacks {
  public constructor(
    private readonly fake: FakeStepFunctions,
    private readonly arn: string,
  ) {
    super();
  }

  public override wait(taskToken: string, signal: AbortSignal): Promise<unknown> {
    const waiting = super.wait(taskToken, signal);
    this.fake.append(this.arn, [
      {
        type: 'TaskScheduled',
        taskScheduledEventDetails: {
          resourceType: 'lambda',
          resource: 'invoke.waitForTaskToken',
          region: 'eu-west-1',
          parameters: JSON.stringify({ Payload: { taskToken } }),
        },
      },
      { type: 'TaskSubmitted' },
    ]);
    return waiting;
  }
}

/** The local runs behind a fake's executions. */
export interface LocalExecutions {
  /** Waits until every run started so far has ended. */
  settled(): Promise<void>;
}

/** Where the handlers of the local runs find Nomad and Consul. */
export interface LocalExecutionsOptions {
  /** The Nomad the functions call (a simulator, with the token they hold). @default - their environment's */
  readonly nomad?: NomadClientConfig;
  /** The Consul the functions that read it call. @default - their environment's */
  readonly consul?: ConsulClientConfig;
}

/** Makes `fake` run each execution it starts through the synthesized definition. */
export function runExecutionsLocally(
  fake: FakeStepFunctions,
  options: LocalExecutionsOptions = {},
): LocalExecutions {
  const runs: Promise<void>[] = [];
  const tokens = new Map<string, LocalTaskTokenCallbacks>();
  const aborts = new Map<string, AbortController>();
  const start = async (execution: FakeExecutionRecord) => {
    const callbacks = new RecordedTaskTokens(fake, execution.arn);
    tokens.set(execution.arn, callbacks);
    const controller = new AbortController();
    aborts.set(execution.arn, controller);
    const local = await runRestartLocally({
      input: JSON.parse(execution.input) as RestartInput,
      ...(options.nomad === undefined ? {} : { nomad: options.nomad }),
      ...(options.consul === undefined ? {} : { consul: options.consul }),
      emit: () => undefined,
      prompt: async () => ({ kind: 'read-error', text: 'no terminal' }),
      taskTokenCallbacks: callbacks,
      signal: controller.signal,
      onStateEntered: (name, type) =>
        fake.append(execution.arn, [
          { type: `${type}StateEntered` as HistoryEventType, stateEnteredEventDetails: { name } },
        ]),
      onStateExited: (name, output) =>
        fake.append(execution.arn, [
          { type: 'TaskStateExited', stateExitedEventDetails: { name, output: JSON.stringify(output) } },
        ]),
    });
    const result = await local.result;
    if (execution.status !== 'RUNNING') return;
    fake.append(execution.arn, [
      result.status === 'SUCCEEDED'
        ? {
            type: 'ExecutionSucceeded',
            executionSucceededEventDetails: { output: JSON.stringify(result.output) },
          }
        : {
            type: 'ExecutionFailed',
            executionFailedEventDetails: { error: result.error ?? '', cause: result.cause ?? '' },
          },
    ]);
  };
  fake.onStart = (execution) => {
    runs.push(start(execution));
  };
  fake.onAnswer = (taskToken, output) => {
    for (const callbacks of tokens.values()) {
      try {
        callbacks.sendTaskSuccess(taskToken, JSON.stringify(output));
        return;
      } catch {
        // Not this run's token.
      }
    }
  };
  fake.onStop = (execution) => aborts.get(execution.arn)?.abort();
  return { settled: async () => void (await Promise.allSettled(runs)) };
}
