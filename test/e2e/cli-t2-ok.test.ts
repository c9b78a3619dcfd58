// Scenario: T2's (`TestJobRestartCommand_parseAndValidate`) nine success cases (3, 4, 6, 7, 15, 17,
// 19, 20, 22) through the real command, against the simulator or the agent at NOMAD_E2E_ADDR.
// Nomad's test reads the parsed values; they are never printed, so each case shows its value
// black-box: with -dry-run against a job that has the named groups and tasks (the plan shows the
// batches and the request each allocation would get), or with a real run read back through the API
// (task events, replaced or untouched allocations). As in the upstream harness, -yes is prepended
// unless the case sets -on-error. One target serves every case: the dry runs use `my-job` in the
// default namespace, each real run its own `my-job` in a namespace of its own (NOMAD_NAMESPACE), so
// the case arguments stay exactly Nomad's. 17's failing restart comes from a proxy in front, as in
// T14.

import type { AllocListStub, Job, TaskGroup } from '../../lib/nomad/types';
import { T2_GROUPS_AND_TASKS_ARGS } from '../fixtures/t2-cases';
import { TIME_SCALE, task } from '../steps/helpers/harness';
import { E2E_ADDR, type E2eTarget, openE2e, wasRestarted } from './helpers/e2e-target';
import { type CliResult, runCliPool } from './helpers/run-cli';
import { type StubProxy, startStubProxy } from './helpers/stub-proxy';

const JOB = 'my-job';
const TASKS = ['my-task-1', 'my-task-2', 'my-task-3'];
const GROUPS = ['my-group-1', 'my-group-2', 'my-group-3'];
const REAL_RUNS = ['t15', 't17', 't19', 't22'];
/** Group shutdown delay of the -no-shutdown-delay case on the simulator, in simulated ns. */
const SHUTDOWN_DELAY_NS = 30_000_000_000;

const lines = (text: string) => text.split('\n');
const short = (id: string) => id.slice(0, 8);

function myJob(namespace: string, groups: TaskGroup[]): Job {
  return {
    ID: JOB,
    Namespace: namespace,
    Type: 'service',
    Region: 'global',
    Datacenters: ['dc1'],
    Priority: 50,
    TaskGroups: groups,
  };
}

/** Every line of the dry run that names a request to Nomad, with the leading spaces cut. */
function requests(result: CliResult): string[] {
  return lines(result.stdout)
    .filter((l) => l.startsWith('        '))
    .map((l) => l.trim());
}

/** The header lines (`==> `) of the output. */
function headers(result: CliResult): string[] {
  return lines(result.stdout).filter((l) => l.startsWith('==> '));
}

/** Time (ns) of the task's last event of `type`, or NaN. */
function eventTime(allocation: AllocListStub | undefined, taskName: string, type: string): number {
  const events = allocation?.TaskStates?.[taskName]?.Events ?? [];
  return events.findLast((e) => e.Type === type)?.Time ?? Number.NaN;
}

describe('nomad-restart T2 success cases (parsed values shown black-box)', () => {
  const RUNS = {
    // First: its 10 s wait overlaps every other run.
    t15: { namespace: 't15', args: ['-yes', '-batch-wait', '10s', JOB] },
    t3: {
      namespace: 'default',
      args: ['-yes', '-dry-run', ...T2_GROUPS_AND_TASKS_ARGS, JOB],
    },
    t4: { namespace: 'default', args: ['-yes', '-dry-run', '-all-tasks', JOB] },
    t6: { namespace: 'default', args: ['-yes', '-dry-run', '-batch-size', '10', JOB] },
    t7: { namespace: 'default', args: ['-yes', '-dry-run', '-batch-size', '10%', JOB] },
    t17: { namespace: 't17', args: ['-on-error', 'fail', JOB] },
    t19: { namespace: 't19', args: ['-yes', '-no-shutdown-delay', JOB] },
    t19reschedule: {
      namespace: 'default',
      args: ['-yes', '-dry-run', '-no-shutdown-delay', '-reschedule', JOB],
    },
    t20: { namespace: 'default', args: ['-yes', '-dry-run', '-reschedule', JOB] },
    t22: { namespace: 't22', args: ['-yes', '-verbose', JOB] },
  };
  type Case = keyof typeof RUNS;
  let target: E2eTarget;
  let proxy: StubProxy;
  const results = {} as Record<Case, CliResult>;
  const order = {} as Record<string, AllocListStub[]>;
  const after = {} as Record<string, AllocListStub[]>;
  beforeAll(async () => {
    // Arrange: 12 allocations of three groups of three tasks for the dry runs, two of one task
    // for each real run; a proxy fails the restart of t17's first allocation with a 502.
    const all = GROUPS.map((name) => ({ Name: name, Count: 4, Tasks: TASKS.map((t) => task(t)) }));
    const two = (extra: Partial<TaskGroup> = {}) => [
      { Name: 'group1', Count: 2, Tasks: [task('task1')], ...extra },
    ];
    target = await openE2e({
      namespaces: REAL_RUNS,
      jobs: [
        myJob('default', all),
        myJob('t15', two()),
        myJob('t17', two()),
        // The delay is checked on the simulator only (an agent's client decides it alone).
        myJob('t19', two(E2E_ADDR ? {} : { ShutdownDelay: SHUTDOWN_DELAY_NS })),
        myJob('t22', two()),
      ],
    });
    // Seeded (simulator) or registered and settled (agent): every allocation already runs.
    for (const namespace of ['default', ...REAL_RUNS]) {
      order[namespace] = (await target.allocations(JOB, namespace))
        .filter((a) => a.DesiredStatus === 'run')
        .sort((a, b) => b.CreateIndex - a.CreateIndex || (a.ID < b.ID ? -1 : 1));
    }
    proxy = await startStubProxy(target.address, {}, [
      {
        pathSuffix: `/v1/client/allocation/${order['t17']?.[0]?.ID}/restart`,
        nth: 1,
        status: 502,
        body: '',
        forward: false,
      },
    ]);

    // Act
    const cases = Object.keys(RUNS) as Case[];
    const out = await runCliPool(
      cases.map((c) => ({
        args: RUNS[c].args,
        env: {
          NOMAD_ADDR: c === 't17' ? proxy.address : target.address,
          NOMAD_NAMESPACE: target.namespace(RUNS[c].namespace),
        },
      })),
    );
    cases.forEach((c, i) => {
      results[c] = out[i] as CliResult;
    });
    // A real client reports task events a moment later; wait for the ones each run should leave.
    const restarted = { t15: 2, t17: 0, t19: 2, t22: 2 } as Record<string, number>;
    for (const namespace of REAL_RUNS) {
      after[namespace] = await target.allocationsWhen(
        JOB,
        (allocations) => allocations.filter(wasRestarted).length === restarted[namespace],
        namespace,
      );
    }
  });
  afterAll(async () => {
    await proxy?.close();
    await target?.close();
  });

  const allocs = (namespace: string) => order[namespace] ?? [];
  const afterRun = (namespace: string, id: string | undefined) => after[namespace]?.find((a) => a.ID === id);

  it("runs 12 allocations of my-job, and 2 of each real run's (precondition)", () => {
    // Assert
    expect(allocs('default').filter((a) => a.ClientStatus === 'running')).toHaveLength(12);
    for (const namespace of REAL_RUNS)
      expect(allocs(namespace).filter((a) => a.ClientStatus === 'running')).toHaveLength(2);
  });

  it('3: -task my-task-1 -task my-task-2 -group my-group-1 -group my-group-2 restarts those tasks in those groups only', () => {
    // Arrange
    const wanted = allocs('default').filter((a) => a.TaskGroup !== 'my-group-3');
    const expected = wanted.flatMap((a) =>
      ['my-task-1', 'my-task-2'].map(
        (t) => `PUT /v1/client/allocation/${a.ID}/restart {"TaskName":"${t}","AllTasks":false}`,
      ),
    );

    // Assert
    expect(results.t3.code).toBe(0);
    expect(requests(results.t3).filter((r) => r.startsWith('PUT'))).toEqual(expected);
    const skipped = [...results.t3.stdout.matchAll(/Skipping allocation "([0-9a-f-]+)" because (.*)/g)];
    expect(skipped.map((m) => m[2])).toEqual(Array(4).fill("it doesn't have any of requested groups"));
  });

  it('4: -all-tasks restarts all tasks of every allocation', () => {
    // Arrange
    const expected = allocs('default').map(
      (a) => `PUT /v1/client/allocation/${a.ID}/restart {"TaskName":"","AllTasks":true}`,
    );

    // Assert
    expect(results.t4.code).toBe(0);
    expect(requests(results.t4).filter((r) => r.startsWith('PUT'))).toEqual(expected);
    expect(results.t4.stdout.match(/Restarting all tasks in allocation/g)).toHaveLength(12);
  });

  it('6: -batch-size 10 makes batches of 10', () => {
    // Assert
    expect(results.t6.code).toBe(0);
    expect(headers(results.t6)).toEqual([
      `==> <ts>: Dry run: would restart 12 allocations of job "${JOB}" in 2 batches of up to 10; nothing was changed`,
      '==> <ts>: 1st batch of 10 allocations',
      '==> <ts>: 2nd batch of 2 allocations',
    ]);
  });

  it('7: -batch-size 10% makes batches of 10% of 12, rounded up: 2', () => {
    // Assert
    expect(results.t7.code).toBe(0);
    expect(headers(results.t7)).toEqual([
      `==> <ts>: Dry run: would restart 12 allocations of job "${JOB}" in 6 batches of up to 2; nothing was changed`,
      ...['1st', '2nd', '3rd', '4th', '5th', '6th'].map((n) => `==> <ts>: ${n} batch of 2 allocations`),
    ]);
  });

  it('15: -batch-wait 10s waits 10s between the batches', () => {
    // Arrange: task event times are simulated on the simulator, real on an agent.
    const [a, b] = allocs('t15');
    const gapNs =
      eventTime(afterRun('t15', b?.ID), 'task1', 'Restart Signaled') -
      eventTime(afterRun('t15', a?.ID), 'task1', 'Restart Signaled');
    const realGapMs = (gapNs / 1e6) * (target.sim ? TIME_SCALE : 1);

    // Assert
    expect(results.t15.code).toBe(0);
    expect(lines(results.t15.stdout)).toEqual([
      '==> <ts>: Restarting 2 allocations',
      `    <ts>: Restarting running tasks in allocation "${short(a?.ID ?? '')}" for group "group1"`,
      '==> <ts>: Waiting 10s before restarting the next batch',
      `    <ts>: Restarting running tasks in allocation "${short(b?.ID ?? '')}" for group "group1"`,
      '==> <ts>: Job restart finished',
      '',
      'Job restarted successfully!',
      '',
    ]);
    expect(realGapMs).toBeGreaterThanOrEqual(10_000);
    expect(realGapMs).toBeLessThan(15_000);
  });

  it('17: -on-error fail without -yes needs no terminal and stops after the failed batch', () => {
    // Arrange
    const first = short(allocs('t17')[0]?.ID ?? '');

    // Assert
    expect(results.t17.code).toBe(1);
    expect(lines(results.t17.stdout)).toEqual([
      '==> <ts>: Restarting 2 allocations',
      `    <ts>: Restarting running tasks in allocation "${first}" for group "group1"`,
      '==> <ts>: Stopping job restart due to error',
      '==> <ts>: Job restart finished with errors',
      '',
    ]);
    expect(lines(results.t17.stderr)).toEqual([
      '',
      '1 error occurred while restarting job:',
      `* Error restarting allocation "${first}": Unexpected response code: 502`,
      '',
    ]);
    expect(proxy.requests('PUT', '/restart')).toBe(1);
    expect((after['t17'] ?? []).filter(wasRestarted)).toEqual([]);
  });

  it('19: -no-shutdown-delay is accepted and, without -reschedule, restarts in place (help text)', () => {
    // Arrange
    const inPlace = allocs('t19').map((a) => afterRun('t19', a.ID));

    // Assert
    expect(results.t19.code).toBe(0);
    expect(results.t19.stdout).toContain('Job restarted successfully!');
    expect(inPlace.map((a) => [a && wasRestarted(a), a?.DesiredStatus, a?.NextAllocation ?? ''])).toEqual([
      [true, 'run', ''],
      [true, 'run', ''],
    ]);
    if (target.sim) {
      // The group shutdown_delay still holds each task between the signal and its end.
      for (const a of inPlace) {
        const gap = eventTime(a, 'task1', 'Terminated') - eventTime(a, 'task1', 'Restart Signaled');
        expect(gap).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_NS);
      }
    }
  });

  it('19: -no-shutdown-delay reaches the stop request with -reschedule', () => {
    // Assert
    expect(results.t19reschedule.code).toBe(0);
    expect(requests(results.t19reschedule).filter((r) => r.startsWith('PUT'))).toEqual(
      allocs('default').map((a) => `PUT /v1/allocation/${a.ID}/stop?no_shutdown_delay=true`),
    );
  });

  it('20: -reschedule stops each allocation instead of restarting it', () => {
    // Assert
    expect(results.t20.code).toBe(0);
    expect(requests(results.t20).filter((r) => r.startsWith('PUT'))).toEqual(
      allocs('default').map((a) => `PUT /v1/allocation/${a.ID}/stop`),
    );
    expect(results.t20.stdout.match(/Rescheduling allocation "[0-9a-f]{8}" for group/g)).toHaveLength(12);
  });

  it('22: -verbose prints full-length allocation IDs', () => {
    // Arrange
    const [a, b] = allocs('t22');

    // Assert
    expect(results.t22.code).toBe(0);
    expect(lines(results.t22.stdout)).toEqual([
      '==> <ts>: Restarting 2 allocations',
      `    <ts>: Restarting running tasks in allocation "${a?.ID}" for group "group1"`,
      `    <ts>: Restarting running tasks in allocation "${b?.ID}" for group "group1"`,
      '==> <ts>: Job restart finished',
      '',
      'Job restarted successfully!',
      '',
    ]);
    expect(a?.ID).toHaveLength(36);
  });
});
