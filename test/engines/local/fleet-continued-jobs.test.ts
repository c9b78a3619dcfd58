/**
 * Scenario: a fleet whose jobs continue as new (a stack synthesized to continue after every
 * batch), through `runFleetLocally` against the simulator with ACLs and the README's policy.
 * `.sync:2` waits only for a job's first execution; the item processor follows the chain
 * (DescribeExecution of each successor) so the job is counted when its last execution ends and
 * its concurrency slot stays taken until then.
 */

import { App } from 'aws-cdk-lib';
import { NomadRestartStack } from '../../../lib/constructs/nomad-restart-stack';
import { runFleetLocally } from '../../../lib/engines/local/fleet-engine';
import { extractStateMachineDefinition } from '../../../lib/engines/local/index';
import {
  type LocalDefinitions,
  type LocalStateMachine,
  STATE_MACHINE_ID_PREFIXES,
} from '../../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import { ContinuationStates } from '../../../lib/workflow/private/fleet-continuation';
import { FlowStates, TASK_STATE_HANDLERS } from '../../../lib/workflow/state-names';
import type { RequestLogEntry } from '../../../sim/types';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../../steps/helpers/harness';

const JOBS = ['api', 'web'];
const ALLOCATIONS_PER_JOB = 3;

/** Both state machines of a stack whose one-job runs continue as new after every batch. */
function continuingEveryBatch(): LocalDefinitions {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  new NomadRestartStack(app, 'NomadRestartContinued', {
    nomadAddress: 'https://nomad.example.internal:4646',
    batchesPerExecution: 1,
  });
  const template = app.synth().getStackByName('NomadRestartContinued').template as Record<string, unknown>;
  const extract = (logicalIdPrefix: string): LocalStateMachine => {
    const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(template, {
      logicalIdPrefix,
    });
    return { definition, stateMachineArn, functionTimeoutsMs };
  };
  return {
    ...extract(STATE_MACHINE_ID_PREFIXES.restart),
    fleet: extract(STATE_MACHINE_ID_PREFIXES.fleet),
  };
}

let stateMachines: LocalDefinitions;
beforeAll(() => {
  stateMachines = continuingEveryBatch();
});

/** Runs a one-at-a-time fleet of {@link JOBS}, one allocation a batch (so one execution a batch). */
async function runFleet(h: Harness, runId: string) {
  const events: FleetProgressEvent[] = [];
  const fleet = await runFleetLocally({
    input: {
      namespace: 'default',
      filter: 'Type == "service"',
      yes: true,
      batchSize: 1,
      onError: 'fail',
      maxJobs: 1,
      maxFailedJobs: 1,
    },
    executionName: runId,
    stateMachines,
    nomad: { address: h.sim.address, token: OPERATOR_TOKEN },
    emit: (event) => events.push(event),
    prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
    // A short poll, not 0: the loop still waits for the successor rather than spinning.
    waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0, [ContinuationStates.waitForContinuedJob]: 20 },
    retryIntervalOverrides: Object.fromEntries(Object.keys(TASK_STATE_HANDLERS).map((name) => [name, 0])),
    now: h.now,
    sleep: h.sleep,
  });
  return { result: await fleet.result, events };
}

const isRestart = (entry: RequestLogEntry) => entry.method === 'PUT' && entry.path.endsWith('/restart');

/** Most jobs between their first and last restart request at once, from the request log. */
function maxJobsRestartingAtOnce(log: readonly RequestLogEntry[]): number {
  const restarts = log.map((entry, at) => ({ entry, at })).filter(({ entry }) => isRestart(entry));
  const spans = new Map<string, { first: number; last: number }>();
  for (const { entry, at } of restarts) {
    const job = entry.job ?? '?';
    const span = spans.get(job);
    spans.set(job, span === undefined ? { first: at, last: at } : { ...span, last: at });
  }
  let most = 0;
  for (const { at } of restarts) {
    const open = [...spans.values()].filter((span) => span.first <= at && at <= span.last).length;
    most = Math.max(most, open);
  }
  return most;
}

describe('a fleet job that continues as new', () => {
  const harness = harnessPerTest();
  const startJobs = async () => {
    const h = await harness.start(
      {
        jobs: JOBS.map((id) => simpleJob(id, 'service', ALLOCATIONS_PER_JOB)),
        acl: readmePolicyAcl(['default']),
      },
      { token: OPERATOR_TOKEN },
    );
    for (const id of JOBS) await waitAllRunning(h, id, ALLOCATIONS_PER_JOB);
    return h;
  };

  it('is followed to the end of its chain: restarted with all its allocations, one job at a time', async () => {
    // Arrange
    const h = await startJobs();

    // Act
    const { result, events } = await runFleet(h, 'fleet-continued');

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    // Each job ran one execution a batch: its first, then two it continued in.
    expect(result.jobs.map((job) => job.stats.executions)).toEqual([3, 3]);
    const log = h.sim.control.requestLog();
    for (const job of JOBS)
      expect(log.filter((entry) => isRestart(entry) && entry.job === job)).toHaveLength(ALLOCATIONS_PER_JOB);
    expect(maxJobsRestartingAtOnce(log)).toBe(1);
    const finished = events.filter((e) => e.type === 'job-finished');
    expect(finished.map((e) => [e.job, e.outcome])).toEqual(JOBS.map((job) => [job, 'restarted']));
    expect(events.at(-1)).toMatchObject({
      type: 'fleet-finished',
      restarted: 2,
      failed: 0,
      withErrors: false,
    });
  });

  it('is reported failed with the error of the continued execution that failed', async () => {
    // Arrange: the second restart of the run (api's, in the execution its first one continued
    // in) refused by Nomad.
    const h = await startJobs();
    h.sim.control.injectFault({
      pathSuffix: '/restart',
      method: 'PUT',
      nth: 2,
      status: 400,
      body: 'restart refused',
    });

    // Act
    const { result, events } = await runFleet(h, 'fleet-continued-fails');

    // Assert
    expect(result.error).toBe('FleetRestartFinishedWithErrors');
    const api = events.find((e) => e.type === 'job-finished' && e.job === 'api');
    expect(api).toMatchObject({ outcome: 'failed' });
    expect(api !== undefined && 'reason' in api ? api.reason : '').toContain('restart refused');
    expect(result.cause).toContain('RestartFailed');
    expect(events.at(-1)).toMatchObject({ type: 'fleet-finished', restarted: 1, failed: 1 });
  });
});
