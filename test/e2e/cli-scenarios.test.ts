// Scenario: acceptance scenarios 5–9 beyond Nomad's own tests, through the real command (a subprocess;
// scenario 5 at a pseudo-terminal), each output compared line by line (timestamps normalised):
// 5. [TIMING] a -reschedule whose replacement stays pending for over 60 s prints `Still waiting
//    for allocation "<orig>" to be replaced` 60 s after the watch began, while it waits (the
//    step streams its lines), not when the step ends; the replacement then starts through the
//    simulator's control API and the run finishes. One real minute: jest runs this file
//    alongside the others;
// 6. a deployment starts while the 1st batch is in flight: as the README says we differ, the
//    batch's allocations are collected and reported, then the check before the next batch
//    stops the run with Nomad's `Deployment "<id>" is "running"` (Nomad stops at once);
// 7. allocations whose job version was pruned: `-task` matches through TaskStates only, and
//    a system job's -reschedule still gets its evaluation (README; Nomad skips it and waits
//    forever);
// 8. -reschedule of a system job with a token lacking submit-job/evaluate-job: the stop
//    happens, the evaluation gets 403, and the error is unrecoverable;
// 9. -yes -on-error ask with recoverable errors: the run goes on through every batch and exits
//    1 with the errors at the end; `500 (Task not running)` for a task that has ended runs
//    against the simulator or the agent at NOMAD_E2E_ADDR, `404 (No path to node)` for
//    allocations on a disconnected node on the simulator only, like 5–8.
// Allocations are handled newest first, ties by ID (Nomad's `command/job_restart.go` `Run`: a
// stable order), which is how the expected lines are built from the target's state.

import type { Allocation, AllocListStub, Job } from '../../lib/nomad/types';
import {
  allocationsOf,
  type Harness,
  prestartTask,
  simpleJob,
  startHarness,
  task,
  waitAllRunning,
} from '../steps/helpers/harness';
import { type E2eTarget, notOnAgent, openE2e, wasRestarted } from './helpers/e2e-target';
import { type CliResult, evaluateDeniedErrorLines, runCli, runCliPool } from './helpers/run-cli';
import { startInPty } from './helpers/run-pty';
import { type StubProxy, startStubProxy } from './helpers/stub-proxy';

const RESTART = 'PUT /v1/client/allocation/:id/restart';
const STOP = 'PUT /v1/allocation/:id/stop';
const EVALUATE = 'PUT /v1/job/:id/evaluate';

const short = (id: string) => id.slice(0, 8);
const lines = (text: string) => text.split('\n');

/** The allocations that are to run, in the order the command handles them. */
function inProcessingOrder<T extends AllocListStub>(allocations: readonly T[]): T[] {
  return allocations
    .filter((a) => a.DesiredStatus === 'run')
    .sort((a, b) => b.CreateIndex - a.CreateIndex || (a.ID < b.ID ? -1 : 1));
}

/** The job's allocations on the simulator that are to run, in the order the command handles them. */
function processingOrder(h: Harness, jobId: string): Allocation[] {
  return inProcessingOrder(allocationsOf(h, jobId));
}

const isRestarted = (allocation: Allocation | undefined) =>
  allocation !== undefined && wasRestarted(allocation);

/** The request log's statuses for one counter key's method and a path ending. */
function statuses(h: Harness, method: string, pathEnd: string): number[] {
  return h.sim.control
    .requestLog()
    .filter((r) => r.method === method && r.path.endsWith(pathEnd))
    .map((r) => r.status);
}

/** Simulated ms a placed allocation stays pending (a day; 864 real s at the harness's scale). */
const ALLOC_START_MS = 86_400_000;
/** How long the test waits for the first Still waiting line before giving up on it. */
const GIVE_UP_MS = 90_000;

describe('nomad-restart suggested acceptance scenarios', () => {
  describe('-yes -on-error ask with a task that has ended (scenario 9, any Nomad)', () => {
    const JOB = 'web-tasks';
    let target: E2eTarget;
    let order: AllocListStub[];
    let result: CliResult;
    let after: AllocListStub[];
    beforeAll(async () => {
      // Arrange: the prestart task ran to its end before the main task started, so restarting
      // it alone is Nomad's recoverable `Task not running`.
      const job: Job = {
        ...simpleJob(JOB, 'service', 3, 'multiple_tasks'),
        TaskGroups: [
          {
            Name: 'multiple_tasks',
            Count: 3,
            Tasks: [prestartTask(), task('main')],
          },
        ],
      };
      target = await openE2e({ jobs: [job] });
      order = inProcessingOrder(await target.allocations(JOB));

      // Act
      result = await runCli(
        ['-yes', '-on-error', 'ask', '-batch-size', '2', '-task', 'prestart', JOB],
        target.env,
      );
      after = await target.allocations(JOB);
    });
    afterAll(() => target?.close());

    it('goes on through every batch and exits 1 with the errors at the end', () => {
      // Arrange
      const detail = (a: AllocListStub | undefined) =>
        `    <ts>: Restarting task "prestart" in allocation "${short(a?.ID ?? '')}" for group "multiple_tasks"`;
      const error = (a: AllocListStub | undefined) =>
        `* Error restarting allocation "${short(a?.ID ?? '')}": Failed to restart task "prestart": Unexpected response code: 500 (Task not running)`;

      // Assert
      expect(order).toHaveLength(3);
      expect(result.code).toBe(1);
      expect(lines(result.stdout)).toEqual([
        '==> <ts>: Restarting 3 allocations',
        '==> <ts>: Restarting 1st batch of 2 allocations',
        detail(order[0]),
        detail(order[1]),
        '==> <ts>: Restarting 2nd batch of 1 allocations',
        detail(order[2]),
        '==> <ts>: Job restart finished with errors',
        '',
      ]);
      expect(lines(result.stderr)).toEqual([
        '',
        '3 errors occurred while restarting job:',
        error(order[0]),
        error(order[1]),
        error(order[2]),
        '',
      ]);
    });

    it('restarts nothing: every allocation still runs, untouched', () => {
      // Assert
      expect(after.filter(wasRestarted)).toEqual([]);
      expect(after.map((a) => [a.DesiredStatus, a.ClientStatus, a.NextAllocation ?? ''])).toEqual(
        order.map(() => ['run', 'running', '']),
      );
      if (target.sim) expect(target.sim.control.counters()[RESTART]).toBe(3);
    });
  });

  const SCENARIO_6 = 'a deployment that starts in the middle of a batch (scenario 6)';
  if (!notOnAgent(SCENARIO_6, 'starts the deployment on the 1st restart through a simulator request trigger'))
    describe(SCENARIO_6, () => {
      const job: Job = {
        ...simpleJob('web', 'service', 6),
        Update: { MaxParallel: 1, Canary: 1, AutoPromote: false },
      };
      let h: Harness;
      let order: Allocation[];
      let result: CliResult;
      beforeAll(async () => {
        // Arrange: the first version's deployment is over; the 3rd allocation's restart gets a
        // proxy error, so the batch has a result of its own to collect.
        h = await startHarness({ jobs: [job] });
        await waitAllRunning(h, job.ID, 6);
        await h.sim.control.waitFor((s) =>
          s.deployments({ jobId: job.ID }).every((d) => d.Status === 'successful'),
        );
        order = processingOrder(h, job.ID);
        h.sim.control.injectFault({
          pathSuffix: `/v1/client/allocation/${order[2]?.ID}/restart`,
          status: 502,
          body: '',
        });
        // A job update (a canary awaiting promotion) arrives with the batch's 1st restart.
        h.sim.control.onRequest({ pathSuffix: '/restart', method: 'PUT' }, () => {
          h.sim.control.registerJob({ ...job, Meta: { version: '2' } });
        });

        // Act
        result = await runCli(['-yes', '-batch-size', '3', job.ID], { NOMAD_ADDR: h.sim.address });
      });
      afterAll(() => h.close());

      it('reports the whole 1st batch, then stops before the 2nd with the deployment error (exit 1)', () => {
        // Arrange
        const running = h.sim.control
          .state()
          .deployments({ jobId: job.ID })
          .filter((d) => d.Status === 'running');
        const detail = (a: Allocation | undefined) =>
          `    <ts>: Restarting running tasks in allocation "${short(a?.ID ?? '')}" for group "group1"`;

        // Assert
        expect(running).toHaveLength(1);
        expect(result.code).toBe(1);
        expect(lines(result.stdout)).toEqual([
          '==> <ts>: Restarting 6 allocations',
          '==> <ts>: Restarting 1st batch of 3 allocations',
          detail(order[0]),
          detail(order[1]),
          detail(order[2]),
          '==> <ts>: Job restart finished with errors',
          '',
        ]);
        expect(lines(result.stderr)).toEqual([
          '',
          '2 errors occurred while restarting job:',
          `* Error restarting allocation "${short(order[2]?.ID ?? '')}": Unexpected response code: 502`,
          `* Deployment "${short(running[0]?.ID ?? '')}" is "running"`,
          '',
        ]);
      });

      it('restarts the 1st batch only: three restart requests, none for the 2nd batch', () => {
        // Assert
        expect(h.sim.control.counters()[RESTART]).toBe(3);
        const state = h.sim.control.state();
        expect(order.map((a) => isRestarted(state.allocation(a.ID)))).toEqual([
          true,
          true,
          false, // the 502 never reached the client
          false,
          false,
          false,
        ]);
      });
    });

  const SCENARIO_7 = 'allocations whose job version was pruned (scenario 7)';
  if (
    !notOnAgent(
      SCENARIO_7,
      'prunes versions with job updates that the simulator applies without touching allocations',
    )
  )
    describe(SCENARIO_7, () => {
      const mon = simpleJob('mon', 'system', 1);
      let h: Harness;
      let proxy: StubProxy;
      let versionsKept: number[];
      let withStates: CliResult;
      let withoutStates: CliResult;
      let knownVersion: CliResult;
      let order: Allocation[];
      let reschedule: CliResult;
      beforeAll(async () => {
        // Arrange: six updates of the job alone (the group is unchanged, so no allocation is
        // replaced) push version 0, the one `mon`'s allocations run, out of the 6 kept.
        // `web` keeps its only version.
        h = await startHarness({
          nodes: [{ name: 'n1' }, { name: 'n2' }],
          jobs: [mon, simpleJob('web', 'service', 2)],
        });
        await waitAllRunning(h, 'mon', 2);
        await waitAllRunning(h, 'web', 2);
        for (let v = 1; v <= 6; v++) h.sim.control.registerJob({ ...mon, Meta: { update: String(v) } });
        const versions = (await (await fetch(`${h.sim.address}/v1/job/mon/versions`)).json()) as {
          Versions: Job[];
        };
        versionsKept = versions.Versions.map((v) => v.Version ?? -1);
        // Allocations the client has not reported on yet have no TaskStates: served so by a proxy.
        const stubsWithoutStates = async (jobId: string) =>
          ((await (await fetch(`${h.sim.address}/v1/job/${jobId}/allocations`)).json()) as Allocation[]).map(
            (a) => ({ ...a, TaskStates: null }),
          );
        proxy = await startStubProxy(h.sim.address, {
          '/v1/job/mon/allocations': await stubsWithoutStates('mon'),
          '/v1/job/web/allocations': await stubsWithoutStates('web'),
        });

        // Act
        // The two runs of `mon` one after the other: at once, the second would find the job locked.
        [withStates, knownVersion] = (await runCliPool([
          { args: ['-yes', '-task', 'task1', 'mon'], env: { NOMAD_ADDR: h.sim.address } },
          { args: ['-yes', '-task', 'task1', 'web'], env: { NOMAD_ADDR: proxy.address } },
        ])) as [CliResult, CliResult];
        withoutStates = await runCli(['-yes', '-verbose', '-task', 'task1', 'mon'], {
          NOMAD_ADDR: proxy.address,
        });
        order = processingOrder(h, 'mon');
        h.sim.control.resetCounters();
        reschedule = await runCli(['-yes', '-reschedule', 'mon'], { NOMAD_ADDR: h.sim.address });
      });
      afterAll(async () => {
        await proxy.close();
        await h.close();
      });

      it('runs on a pruned version (precondition)', () => {
        // Assert
        expect(versionsKept).toEqual([6, 5, 4, 3, 2, 1]);
        expect(order.map((a) => a.JobVersion)).toEqual([0, 0]);
      });

      it('matches -task through TaskStates when the version is gone', () => {
        // Arrange
        const [a, b] = order;

        // Assert
        expect(withStates.code).toBe(0);
        expect(lines(withStates.stdout)).toEqual([
          '==> <ts>: Restarting 2 allocations',
          `    <ts>: Restarting task "task1" in allocation "${short(a?.ID ?? '')}" for group "group1"`,
          `    <ts>: Restarting task "task1" in allocation "${short(b?.ID ?? '')}" for group "group1"`,
          '==> <ts>: Job restart finished',
          '',
          'Job restarted successfully!',
          '',
        ]);
      });

      it('skips them for -task without TaskStates: the pruned version is not consulted', () => {
        // Arrange
        const skip = (a: Allocation | undefined) =>
          `    <ts>: Skipping allocation "${a?.ID}" because it doesn't have any of requested tasks`;

        // Assert
        expect(withoutStates.code).toBe(0);
        expect(lines(withoutStates.stdout)).toEqual([
          skip(order[0]),
          skip(order[1]),
          'No allocations to restart',
          '',
        ]);
      });

      it('still matches -task through a known version without TaskStates (the contrast)', () => {
        // Assert
        expect(knownVersion.code).toBe(0);
        expect(knownVersion.stdout).toContain('==> <ts>: Restarting 2 allocations\n');
        expect(knownVersion.stdout.match(/Restarting task "task1" in allocation/g)).toHaveLength(2);
      });

      it('evaluates a system job after each stop though the version is gone, so -reschedule ends (unlike Nomad)', () => {
        // Arrange
        const state = h.sim.control.state();
        const next = order.map((a) => state.allocation(a.ID)?.NextAllocation ?? '');
        const steps = order.flatMap((a, i) => [
          `    <ts>: Rescheduling allocation "${short(a.ID)}" for group "group1"`,
          `    <ts>: Allocation "${short(a.ID)}" replaced by "${short(next[i] ?? '')}", waiting for "${short(next[i] ?? '')}" to start running`,
          `    <ts>: Allocation "${short(next[i] ?? '')}" is "running"`,
        ]);

        // Assert
        expect(reschedule.code).toBe(0);
        expect(next.every((id) => id !== '')).toBe(true);
        expect(lines(reschedule.stdout)).toEqual([
          '==> <ts>: Restarting 2 allocations',
          ...steps,
          '==> <ts>: Job restart finished',
          '',
          'Job restarted successfully!',
          '',
        ]);
        const counters = h.sim.control.counters();
        expect(counters[STOP]).toBe(2);
        expect(counters[EVALUATE]).toBe(2);
      });
    });

  const SCENARIO_8 = '-reschedule of a system job without submit-job or evaluate-job (scenario 8)';
  if (
    !notOnAgent(
      SCENARIO_8,
      'runs on an ACL-enabled agent in acl-agent-nomad-tests.test.ts (NOMAD_E2E_ACL_ADDR, NOMAD_E2E_ACL_TOKEN)',
    )
  )
    describe(SCENARIO_8, () => {
      const JOB = 'node-monitor';
      let h: Harness;
      let order: Allocation[];
      let denied: CliResult;
      let allowed: CliResult;
      let deniedStatuses: { stop: number[]; evaluate: number[] };
      beforeAll(async () => {
        // Arrange
        const caps = (...c: string[]) => ({ default: c });
        // The job's shared lock and its restart history are granted (as the help text asks): only
        // evaluate-job is missing.
        const variables = {
          default: {
            'nomad-restart/locks/*': ['read', 'write'],
            'nomad-restart/history/*': ['read', 'write'],
          },
        };
        h = await startHarness({
          nodes: [{ name: 'n1' }, { name: 'n2' }, { name: 'n3' }],
          jobs: [simpleJob(JOB, 'system', 1)],
          acl: {
            enabled: true,
            tokens: [
              {
                secret: 'ops-secret',
                namespaces: caps('list-jobs', 'read-job', 'alloc-lifecycle'),
                variables,
              },
              {
                secret: 'ops-eval-secret',
                namespaces: caps('list-jobs', 'read-job', 'alloc-lifecycle', 'evaluate-job'),
                variables,
              },
            ],
          },
        });
        await waitAllRunning(h, JOB, 3);
        order = processingOrder(h, JOB);

        // Act
        denied = await runCli(['-yes', '-reschedule', JOB], {
          NOMAD_ADDR: h.sim.address,
          NOMAD_TOKEN: 'ops-secret',
        });
        deniedStatuses = {
          stop: statuses(h, 'PUT', '/stop'),
          evaluate: statuses(h, 'PUT', '/evaluate'),
        };
        h.sim.control.resetCounters();
        allowed = await runCli(['-yes', '-reschedule', JOB], {
          NOMAD_ADDR: h.sim.address,
          NOMAD_TOKEN: 'ops-eval-secret',
        });
      });
      afterAll(() => h.close());

      it('stops at once on the 403 as an unrecoverable error (exit 1)', () => {
        // Arrange
        const first = short(order[0]?.ID ?? '');

        // Assert
        expect(denied.code).toBe(1);
        expect(lines(denied.stdout)).toEqual([
          '==> <ts>: Restarting 3 allocations',
          `    <ts>: Rescheduling allocation "${first}" for group "group1"`,
          '==> <ts>: Stopping job restart due to unrecoverable error',
          '==> <ts>: Job restart finished with errors',
          '',
        ]);
        expect(lines(denied.stderr)).toEqual(evaluateDeniedErrorLines(first));
        expect(denied.stdout + denied.stderr).not.toContain('ops-secret');
      });

      it('has already stopped the allocation: one stop answered 200, one evaluation answered 403', () => {
        // Assert
        expect(deniedStatuses).toEqual({ stop: [200], evaluate: [403] });
        expect(order[0]?.DesiredTransition?.Migrate).toBeUndefined();
        expect(h.sim.control.state().allocation(order[0]?.ID ?? '')?.DesiredTransition?.Migrate).toBe(true);
      });

      it('succeeds with evaluate-job added to the token (the contrast)', () => {
        // Assert
        expect(allowed.code).toBe(0);
        expect(allowed.stdout).toContain('Job restarted successfully!');
        expect(statuses(h, 'PUT', '/evaluate')).toEqual([200, 200]);
        const state = h.sim.control.state();
        expect(order.every((a) => state.allocation(a.ID)?.NextAllocation)).toBe(true);
      });
    });

  const SCENARIO_9 = '-yes -on-error ask with allocations on a disconnected node (scenario 9)';
  if (!notOnAgent(SCENARIO_9, 'disconnects a node through the simulator control API'))
    describe(SCENARIO_9, () => {
      const job: Job = simpleJob('web', 'service', 6);
      let h: Harness;
      let order: Allocation[];
      let onLostNode: Set<string>;
      let result: CliResult;
      beforeAll(async () => {
        // Arrange: with `replace = false` the allocations on the disconnected node stay
        // `unknown` (desired run, so eligible) and no replacement is made for them.
        const group = job.TaskGroups?.[0];
        if (group) group.Disconnect = { LostAfter: 3_600_000_000_000, Replace: false };
        h = await startHarness({
          nodes: [
            { name: 'n1', capacity: 3 },
            { name: 'n2', capacity: 3 },
          ],
          jobs: [job],
        });
        await waitAllRunning(h, job.ID, 6);
        const n2 = h.sim.control
          .state()
          .nodes()
          .find((n) => n.Name === 'n2');
        h.sim.control.setNodeStatus(n2?.ID ?? '', 'disconnected');
        order = processingOrder(h, job.ID);
        onLostNode = new Set(order.filter((a) => a.NodeID === n2?.ID).map((a) => a.ID));

        // Act
        result = await runCli(['-yes', '-on-error', 'ask', '-batch-size', '2', job.ID], {
          NOMAD_ADDR: h.sim.address,
        });
      });
      afterAll(() => h.close());

      it('has failing allocations before the last batch (precondition)', () => {
        // Assert: three of six on n2 cannot all fit in the last batch of two.
        expect(order.map((a) => a.ClientStatus).filter((s) => s === 'unknown')).toHaveLength(3);
        expect(order.slice(0, 4).some((a) => onLostNode.has(a.ID))).toBe(true);
      });

      it('goes on through every batch and exits 1 with the errors at the end', () => {
        // Arrange
        const detail = (a: Allocation) =>
          `    <ts>: Restarting running tasks in allocation "${short(a.ID)}" for group "group1"`;
        const failed = order.filter((a) => onLostNode.has(a.ID));

        // Assert
        expect(result.code).toBe(1);
        expect(lines(result.stdout)).toEqual([
          '==> <ts>: Restarting 6 allocations',
          '==> <ts>: Restarting 1st batch of 2 allocations',
          ...order.slice(0, 2).map(detail),
          '==> <ts>: Restarting 2nd batch of 2 allocations',
          ...order.slice(2, 4).map(detail),
          '==> <ts>: Restarting 3rd batch of 2 allocations',
          ...order.slice(4, 6).map(detail),
          '==> <ts>: Job restart finished with errors',
          '',
        ]);
        expect(lines(result.stderr)).toEqual([
          '',
          '3 errors occurred while restarting job:',
          ...failed.map(
            (a) =>
              `* Error restarting allocation "${short(a.ID)}": Unexpected response code: 404 (No path to node)`,
          ),
          '',
        ]);
      });

      it('sends every restart and restarts every allocation on the connected node', () => {
        // Assert
        expect(h.sim.control.counters()[RESTART]).toBe(6);
        const state = h.sim.control.state();
        for (const a of order) expect(isRestarted(state.allocation(a.ID))).toBe(!onLostNode.has(a.ID));
      });
    });

  const SCENARIO_5 = 'a replacement pending for over a minute (scenario 5)';
  if (
    !notOnAgent(SCENARIO_5, 'holds the replacement pending and starts it through the simulator control API')
  )
    describe(SCENARIO_5, () => {
      let h: Harness;
      let cli: ReturnType<typeof startInPty> | undefined;
      afterAll(async () => {
        cli?.stop();
        await h.close();
      });

      it('prints Still waiting at 60 s while waiting, then finishes once the replacement runs', async () => {
        // Arrange
        h = await startHarness({ jobs: [simpleJob('web', 'service', 1)] }, { allocStartMs: ALLOC_START_MS });
        await waitAllRunning(h, 'web', 1);
        const original = allocationsOf(h, 'web')[0]?.ID ?? '';
        const orig = original.slice(0, 8);

        // Act
        cli = startInPty(['-yes', '-reschedule', 'web'], { NOMAD_ADDR: h.sim.address });
        const rescheduledAt = await cli.lineAt(
          `    <ts>: Rescheduling allocation "${orig}" for group "group1"`,
          30_000,
        );
        const stillWaitingAt = await cli.lineAt(
          `    <ts>: Still waiting for allocation "${orig}" to be replaced`,
          GIVE_UP_MS,
        );
        const replacement = h.sim.control.state().allocation(original)?.NextAllocation ?? '';
        const replacementStatus = h.sim.control.state().allocation(replacement)?.ClientStatus;
        // Let the replacement run so the command finishes (or, if there is none, stop the command).
        if (replacementStatus === 'pending') h.sim.control.startPendingAllocation(replacement);
        else cli.stop();
        const result = await cli.exited;

        // Assert: the line came 60 s into the watch, while the replacement was still pending.
        expect(rescheduledAt).toBeDefined();
        expect(stillWaitingAt).toBeDefined();
        const elapsed = (stillWaitingAt ?? 0) - (rescheduledAt ?? 0);
        expect(elapsed).toBeGreaterThanOrEqual(59_500);
        expect(elapsed).toBeLessThan(63_000);
        expect(replacementStatus).toBe('pending');
        const next = replacement.slice(0, 8);
        expect(result.code).toBe(0);
        expect(result.output.split('\n')).toEqual([
          '==> <ts>: Restarting 1 allocation',
          `    <ts>: Rescheduling allocation "${orig}" for group "group1"`,
          `    <ts>: Allocation "${orig}" replaced by "${next}", waiting for "${next}" to start running`,
          `    <ts>: Still waiting for allocation "${orig}" to be replaced`,
          `    <ts>: Allocation "${next}" is "running"`,
          '==> <ts>: Job restart finished',
          '',
          'Job restarted successfully!',
          '',
        ]);
      });
    });
});
