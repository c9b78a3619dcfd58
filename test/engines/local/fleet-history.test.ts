/**
 * Scenario: a fleet run's own record in the restart history (issue #40), through the synthesized
 * fleet state machine and the local engine with the real handlers, against the simulator over
 * HTTP with ACLs on and the README's fleet policy: 3 service jobs (and a sysbatch job the plan
 * skips) restarted with a `-reason`: "Plan fleet" writes the record provisionally (read back while
 * the first job runs), "Summarize fleet" makes it final, with the jobs by outcome and the counts
 * in jobs, in the fleets' history of the namespace, and each job's run writes its own record,
 * linked by `fleetRunId` and carrying the fleet's reason; a fleet stopped with `stop` ends it
 * `canceled` with who stopped it, though no summary runs. A dry run, and a fleet with no job to
 * restart, write nothing; a token
 * without the history rule has its writes refused and the fleet restarts as usual.
 */
import {
  type LocalFleet,
  type LocalFleetRequest,
  runFleetLocally,
} from '../../../lib/engines/local/fleet-engine';
import { type LocalDefinitions, loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import type { RunRecord } from '../../../lib/history/record';
import type { HistoryPlace } from '../../../lib/history/run-history';
import { NomadClient } from '../../../lib/nomad/client';
import { NomadRunHistory } from '../../../lib/stores/nomad-run-history';
import { FLEET_HISTORY_PATH } from '../../../lib/stores/shared-lock-settings';
import { TaskStates } from '../../../lib/workflow/state-names';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmeFleetPolicyToken } from '../../fixtures/readme-policy';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../../steps/helpers/harness';
import { SECOND_BATCHES_MS } from './helpers/batch-clock';
import { quickFleetParts } from './helpers/fleet-harness';

const JOBS = ['api', 'cache', 'db'];
const REASON = 'CHG-1234 rotate the TLS certificate';
const FLEETS: HistoryPlace = { namespace: 'default', fleets: true };

let stateMachines: LocalDefinitions;
beforeAll(async () => {
  stateMachines = (await loadLocalDefinition()).stateMachine;
});

/** The records of `place`, read with a management token (the run's own token is the README's). */
async function recordsOf(h: Harness, place: HistoryPlace): Promise<readonly RunRecord[]> {
  const client = NomadClient.create({ address: h.sim.address, token: MANAGEMENT_TOKEN });
  return (await new NomadRunHistory(client).read(place)).records;
}

/** The requests on the run history's variables, after the first `from` of the request log. */
function historyRequests(h: Harness, from = 0) {
  return h.sim.control
    .requestLog()
    .slice(from)
    .filter((r) => r.path.startsWith('/v1/var/nomad-restart/history/'));
}

/** A fleet over {@link JOBS}' namespace, each job in batches of 1, with {@link REASON}. */
async function startFleet(
  h: Harness,
  runId: string,
  extra: Partial<LocalFleetRequest> = {},
): Promise<LocalFleet> {
  return runFleetLocally({
    input: {
      namespace: 'default',
      yes: true,
      maxJobs: 1,
      maxFailedJobs: 0,
      batchSize: '1',
      reason: REASON,
      startedBy: 'ops@laptop',
    },
    executionName: runId,
    stateMachines,
    ...quickFleetParts(h),
    now: h.now,
    sleep: h.sleep,
    controlPollMs: 20,
    ...extra,
  });
}

describe("a fleet run's record", () => {
  const harness = harnessPerTest();
  const startJobs = async () => {
    const h = await harness.start(
      {
        jobs: [...JOBS.map((id) => simpleJob(id, 'service', 2)), simpleJob('nightly', 'sysbatch', 1)],
        acl: {
          enabled: true,
          tokens: [readmeFleetPolicyToken(['default']), { secret: MANAGEMENT_TOKEN, management: true }],
        },
      },
      { token: OPERATOR_TOKEN },
    );
    for (const id of JOBS) await waitAllRunning(h, id, 2);
    return h;
  };

  it('is written provisionally by Plan fleet and made final by Summarize fleet, in the fleets history', async () => {
    // Arrange
    const h = await startJobs();
    let provisional: readonly RunRecord[] | undefined;
    let reading: Promise<void> | undefined;
    const emit = (event: FleetProgressEvent) => {
      // While the first job runs: the plan's record, not yet the summary's.
      if (event.type === 'job-started' && reading === undefined)
        reading = recordsOf(h, FLEETS).then((records) => {
          provisional = records;
        });
    };

    // Act
    const result = await (await startFleet(h, 'fleet-recorded', { emit })).result;
    await reading;
    const records = await recordsOf(h, FLEETS);

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(provisional).toEqual([
      expect.objectContaining({ runId: 'fleet-recorded', kind: 'fleet', outcome: 'running' }),
    ]);
    expect(provisional?.[0]).not.toHaveProperty('endedAt');
    expect(records).toHaveLength(1);
    expect(records[0]).toEqual({
      version: 1,
      runId: 'fleet-recorded',
      kind: 'fleet',
      namespace: 'default',
      jobId: '',
      engine: 'terminal',
      startedBy: 'ops@laptop',
      reason: REASON,
      options: '-namespace=default -max-jobs=1 -max-failed-jobs=0',
      outcome: 'succeeded',
      counts: { planned: 3, restarted: 3, failed: 0, skipped: 1, notReached: 0 },
      jobOutcomes: { succeeded: 3 },
      startedAt: expect.any(Number),
      endedAt: expect.any(Number),
      errors: [],
      omittedErrors: 0,
    });
    // The fleet's record lives in its own variable, beside no job's.
    expect(h.sim.control.state().variable('default', FLEET_HISTORY_PATH)).toBeDefined();
    // Each job's run left its own record, linked to the fleet's, with the fleet's reason.
    for (const [index, job] of JOBS.entries()) {
      expect(await recordsOf(h, { namespace: 'default', jobId: job })).toEqual([
        expect.objectContaining({
          kind: 'job',
          jobId: job,
          fleetRunId: 'fleet-recorded',
          startedBy: `fleet run "fleet-recorded" (job ${index + 1} of 3)`,
          reason: REASON,
          outcome: 'succeeded',
          counts: { planned: 2, restarted: 2, failed: 0, skipped: 0, notReached: 0 },
        }),
      ]);
    }
  });

  it('ends canceled, with who stopped it, when the fleet is stopped before its summary', async () => {
    // Arrange: batches of 1 over 2 allocations, so the stop finds the first job between batches.
    const h = await startJobs();
    let fleet: LocalFleet | undefined;
    let stopping: Promise<unknown> | undefined;
    const emit = (event: FleetProgressEvent) => {
      if (event.type === 'allocation-restarting' && stopping === undefined && fleet !== undefined)
        stopping = fleet.requestControl({
          verb: 'stop',
          requestedBy: 'dave@ops',
          via: 'terminal',
          at: Date.now(),
        });
    };
    // Each batch a second on the steps' clock: the job's next safe point reads the fleet's stop,
    // read at most once a second (lib/steps/lock/control-read.ts).
    let batchesMs = 0;
    fleet = await startFleet(h, 'fleet-stopped', {
      emit,
      now: () => h.now() + batchesMs,
      interceptInvocation: async (state, invoke) => {
        const out = await invoke();
        if (state === TaskStates.restartBatch) batchesMs += SECOND_BATCHES_MS;
        return out;
      },
    });

    // Act
    const result = await fleet.result;
    await stopping;
    const records = await recordsOf(h, FLEETS);

    // Assert
    expect(result.status).toBe('ABORTED');
    expect(records).toEqual([
      expect.objectContaining({
        runId: 'fleet-stopped',
        outcome: 'canceled',
        stoppedBy: 'dave@ops (terminal)',
        counts: { planned: 3, restarted: 0, failed: 0, skipped: 1, notReached: 2 },
        jobOutcomes: { canceled: 1 },
        endedAt: expect.any(Number),
      }),
    ]);
    // The first job's run, stopped by the fleet's stop, says so in its own record.
    expect(await recordsOf(h, { namespace: 'default', jobId: 'api' })).toEqual([
      expect.objectContaining({
        fleetRunId: 'fleet-stopped',
        outcome: 'canceled',
        stoppedBy: 'dave@ops (terminal)',
      }),
    ]);
  });
  it('writes no record for a dry run, which changes nothing', async () => {
    // Arrange
    const h = await startJobs();
    const from = h.sim.control.requestLog().length;

    // Act
    const fleet = await startFleet(h, 'fleet-dry-run', {
      input: { namespace: 'default', yes: true, dryRun: true, reason: REASON },
    });
    const result = await fleet.result;

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(historyRequests(h, from)).toEqual([]);
    expect(await recordsOf(h, FLEETS)).toEqual([]);
  });

  it('writes no record for a fleet with no job to restart (only a sysbatch job selected)', async () => {
    // Arrange
    const h = await startJobs();
    const from = h.sim.control.requestLog().length;

    // Act
    const fleet = await startFleet(h, 'fleet-nothing', {
      input: { namespace: 'default', filter: 'Type == "sysbatch"', yes: true, reason: REASON },
    });
    const result = await fleet.result;

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(historyRequests(h, from)).toEqual([]);
  });

  it('restarts the fleet as usual with a token that may not write the history, and records nothing', async () => {
    // Arrange: the README fleet policy without its history rule.
    const token = readmeFleetPolicyToken(['default']);
    const variables = Object.fromEntries(
      Object.entries(token.variables ?? {}).map(([ns, byPath]) => [
        ns,
        Object.fromEntries(
          Object.entries(byPath).filter(([path]) => !path.startsWith('nomad-restart/history/')),
        ),
      ]),
    );
    const h = await harness.start(
      {
        jobs: JOBS.map((id) => simpleJob(id, 'service', 2)),
        acl: {
          enabled: true,
          tokens: [
            { ...token, variables },
            { secret: MANAGEMENT_TOKEN, management: true },
          ],
        },
      },
      { token: OPERATOR_TOKEN },
    );
    for (const id of JOBS) await waitAllRunning(h, id, 2);

    // Act
    const result = await (await startFleet(h, 'fleet-unrecorded')).result;

    // Assert: the writes were refused (403), the run went on.
    expect(result.status).toBe('SUCCEEDED');
    expect(result.jobs.map((job) => job.status)).toEqual(JOBS.map(() => 'SUCCEEDED'));
    const refused = historyRequests(h).filter((r) => r.status === 403);
    expect(refused.length).toBeGreaterThan(0);
    expect(await recordsOf(h, FLEETS)).toEqual([]);
  });
});
