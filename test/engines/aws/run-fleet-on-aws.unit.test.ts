/**
 * Scenario: `nomad-restart fleet -engine=aws` against a faked Step Functions whose histories grow
 * by one chunk per poll: the fleet execution (plan, map run, summary) shaped as
 * `lib/workflow/fleet-definition.ts` writes it, the map run's item executions, and each job's
 * one-job execution shaped as the restart state machine writes it.
 */
import {
  ExecutionDoesNotExist,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { type RunFleetOnAwsRequest, runFleetOnAws } from '../../../lib/engines/aws';
import type { FleetJobName, FleetProgressEvent } from '../../../lib/fleet/events';
import { toFleetInput, validateFleetInput } from '../../../lib/fleet/input';
import type { FleetJobItem } from '../../../lib/fleet/items';
import type { ProgressEvent } from '../../../lib/restart/events';
import type { EventShape } from './helpers/fake-history';
import { ev, FakeExecution } from './helpers/fake-history';

const sfn = mockClient(SFNClient);

const ACCOUNT = 'arn:aws:states:eu-west-1:123456789012';
const FLEET_MACHINE = `${ACCOUNT}:stateMachine:NomadRestart-Fleet`;
const FLEET = `${ACCOUNT}:execution:NomadRestart-Fleet:fleet-1`;
const MAP_RUN = `${ACCOUNT}:mapRun:NomadRestart-Fleet/Restart-jobs:abc`;
const ITEM = (n: number) => `${ACCOUNT}:execution:NomadRestart-Fleet/Restart-jobs:item-${n}`;
const CHILD = (n: number) => `${ACCOUNT}:execution:NomadRestart-Restart:web-${n}`;
const fleet = validateFleetInput({ namespace: '*', maxJobs: 2, yes: true }, { interactive: false });

const item = (n: number): FleetJobItem => ({
  input: { job: `web-${n}`, namespace: 'default', fleet: { runId: 'fleet-1', index: n, of: 2 } },
  executionName: `web-${n}-default-x`,
  allocations: 2,
});
const planned = {
  type: 'TaskStateExited',
  stateExitedEventDetails: {
    name: 'Plan fleet',
    output: JSON.stringify({
      plan: {
        jobs: 2,
        allocations: 4,
        skipped: 1,
        namespaces: ['default'],
        itemsKey: 'i',
        skippedKey: 's',
        resultsPrefix: 'r',
      },
      budget: { maxJobs: 2, maxFailedJobs: 0 },
    }),
  },
} satisfies EventShape;
const mapStarted: EventShape = { type: 'MapRunStarted', mapRunStartedEventDetails: { mapRunArn: MAP_RUN } };
const summary = (failed: number) => ({
  outcome: failed > 0 ? 'finished-with-errors' : 'finished',
  restarted: 2 - failed,
  failed,
  skipped: 1,
  problems: [
    { namespace: 'default', job: 'batch-1', problem: { kind: 'sysbatch' }, reason: 'a sysbatch job' },
  ],
  omittedProblems: 0,
  text: 'Fleet restart finished',
});
/** "Summarize fleet"'s result: the summary, with the events the step tells (`fleet-finished`). */
const summarized = (failed: number): EventShape => {
  const { restarted, skipped, outcome } = summary(failed);
  const finished = {
    type: 'fleet-finished',
    time: 1,
    restarted,
    failed,
    skipped,
    withErrors: outcome !== 'finished',
  };
  return {
    type: 'TaskStateExited',
    stateExitedEventDetails: {
      name: 'Summarize fleet',
      output: JSON.stringify({ summary: { ...summary(failed), events: [finished] } }),
    },
  };
};

/** An item execution: its input, the one-job execution it started, then its result (a `FleetJobResult`). */
const itemHistory = (n: number, output: unknown = { outcome: 'succeeded' }) =>
  new FakeExecution([
    [
      {
        type: 'ExecutionStarted',
        executionStartedEventDetails: { input: JSON.stringify({ options: {}, item: item(n) }) },
      },
      {
        type: 'TaskSubmitted',
        taskSubmittedEventDetails: {
          resourceType: 'states',
          resource: 'startExecution.sync:2',
          output: JSON.stringify({ ExecutionArn: CHILD(n), StartDate: 0 }),
        },
      },
    ],
    [],
    [],
    [ev.succeeded({ ...item(n).input, executionArn: CHILD(n), output })],
  ]);
const LOCKED_CAUSE =
  'Job "web-2" in namespace "default" is already being restarted by run "other" (started by ops@laptop)';
const started = (n: number): ProgressEvent => ({ type: 'restart-started', time: n, count: 2 });
const finished: ProgressEvent = { type: 'finished', time: 9, errors: [], canceled: false };
const plan = { jobId: 'web', namespace: 'default', planKey: 'runs/x/plan.json' };
const childRestarted = (n: number) =>
  new FakeExecution([
    [
      ev.step('Validate input', []),
      ev.step('Plan restart', [], { plan }),
      ev.step('Lock job', [started(n)], { plan }),
    ],
    [
      ev.step('Finish restart', [finished], { plan }),
      ev.succeeded({ outcome: 'succeeded', jobId: `web-${n}`, restarted: 2, failed: 0, errorText: '' }),
    ],
  ]);
const childLocked = () =>
  new FakeExecution([
    [
      ev.step('Validate input', []),
      ev.step('Plan restart', [], { plan }),
      ev.failed('JobLocked', LOCKED_CAUSE),
    ],
  ]);

/** Serves the histories, and the map run's item executions once asked. */
function serve(executions: Record<string, FakeExecution>, items: string[]): void {
  sfn.on(StartExecutionCommand).resolves({ executionArn: FLEET, startDate: new Date(0) });
  sfn
    .on(ListExecutionsCommand)
    .resolves({ executions: items.map((executionArn) => ({ executionArn })) as never });
  sfn.on(GetExecutionHistoryCommand).callsFake((input) => {
    const execution = executions[input.executionArn];
    if (execution === undefined)
      throw new ExecutionDoesNotExist({
        message: `Execution Does Not Exist: '${input.executionArn}'`,
        $metadata: {},
      });
    return execution.read(input);
  });
}

async function run(overrides: Partial<RunFleetOnAwsRequest> = {}) {
  const emitted: FleetProgressEvent[] = [];
  const errors: { message: string; job?: FleetJobName }[] = [];
  const result = await runFleetOnAws({
    fleet,
    stateMachineArn: FLEET_MACHINE,
    clients: { sfn: new SFNClient({ region: 'eu-west-1' }) },
    emit: (event) => emitted.push(event),
    askFor: () => async (question) => question.defaultOnInterrupt,
    operator: 'tester@laptop',
    printError: (message, job) => errors.push(job === undefined ? { message } : { message, job }),
    pollIntervalMs: 0,
    env: {},
    retry: { retries: 1, minTimeoutMs: 1 },
    ...overrides,
  });
  return { result, emitted, errors };
}

describe('runFleetOnAws', () => {
  afterEach(() => sfn.reset());

  it('starts the fleet state machine with the fleet input and who started it, and no secret', async () => {
    // Arrange
    serve({ [FLEET]: new FakeExecution([[planned, summarized(0), ev.succeeded(summary(0))]]) }, []);

    // Act
    await run({ env: { NOMAD_TOKEN: 'secret-token-0d4e' } });

    // Assert
    const input = sfn.commandCalls(StartExecutionCommand)[0]?.args[0].input;
    expect(input?.stateMachineArn).toBe(FLEET_MACHINE);
    expect(input?.input).not.toContain('secret-token-0d4e');
    expect(JSON.parse(input?.input ?? '')).toEqual(toFleetInput(fleet, 'tester@laptop'));
  });

  it('prints the plan, each job’s lines tagged with the job as they happen, and the summary', async () => {
    // Arrange
    serve(
      {
        [FLEET]: new FakeExecution([
          [planned],
          [mapStarted],
          [],
          [],
          [],
          [summarized(0), ev.succeeded(summary(0))],
        ]),
        [ITEM(1)]: itemHistory(1),
        [ITEM(2)]: itemHistory(2),
        [CHILD(1)]: childRestarted(1),
        [CHILD(2)]: childRestarted(2),
      },
      [ITEM(1), ITEM(2)],
    );

    // Act
    const { result, emitted, errors } = await run();

    // Assert
    expect(result).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [FLEET] });
    expect(errors).toEqual([]);
    expect(emitted[0]).toEqual(expect.objectContaining({ type: 'fleet-planned', jobs: 2, allocations: 4 }));
    for (const n of [1, 2]) {
      const job = { namespace: 'default', job: `web-${n}` };
      const mine = emitted.filter((e) => 'job' in e && e.job === job.job).map((e) => e.type);
      expect(mine).toEqual(['job-started', 'restart-started', 'finished', 'job-finished']);
      expect(emitted).toContainEqual({ ...started(n), ...job });
      expect(emitted).toContainEqual(
        expect.objectContaining({ type: 'job-started', index: n, of: 2, ...job }),
      );
      expect(emitted).toContainEqual(
        expect.objectContaining({
          type: 'job-finished',
          outcome: 'restarted',
          executionArn: CHILD(n),
          ...job,
        }),
      );
    }
    expect(emitted.at(-1)).toEqual(
      expect.objectContaining({
        type: 'fleet-finished',
        restarted: 2,
        failed: 0,
        skipped: 1,
        withErrors: false,
      }),
    );
  });

  it('tells a locked job by its item’s result, names it in its error line, exits 1 without printing the summary twice', async () => {
    // Arrange
    serve(
      {
        [FLEET]: new FakeExecution([
          [planned],
          [mapStarted],
          [],
          [],
          [],
          [
            summarized(1),
            ev.failed('FleetRestartFinishedWithErrors', 'Fleet restart finished with errors: ...'),
          ],
        ]),
        [ITEM(1)]: itemHistory(1),
        [ITEM(2)]: itemHistory(2, LOCKED_CAUSE),
        [CHILD(1)]: childRestarted(1),
        [CHILD(2)]: childLocked(),
      },
      [ITEM(1), ITEM(2)],
    );

    // Act
    const { result, emitted, errors } = await run();

    // Assert
    expect(result).toEqual({ exitCode: 1, status: 'FAILED', executionArns: [FLEET] });
    expect(errors).toEqual([{ message: LOCKED_CAUSE, job: { namespace: 'default', job: 'web-2' } }]);
    expect(emitted).toContainEqual(
      expect.objectContaining({
        type: 'job-finished',
        outcome: 'locked',
        reason: 'run "other" (started by ops@laptop)',
        job: 'web-2',
      }),
    );
    expect(emitted.at(-1)).toEqual(
      expect.objectContaining({ type: 'fleet-finished', failed: 1, withErrors: true }),
    );
  });

  it('follows no job before the map run started, and asks Step Functions for the map run’s executions only', async () => {
    // Arrange
    serve({ [FLEET]: new FakeExecution([[planned], [summarized(0), ev.succeeded(summary(0))]]) }, [ITEM(1)]);

    // Act
    const { result, emitted } = await run();

    // Assert
    expect(result.exitCode).toBe(0);
    expect(sfn.commandCalls(ListExecutionsCommand)).toHaveLength(0);
    expect(emitted.map((e) => e.type)).toEqual(['fleet-planned', 'fleet-finished']);
  });
});
