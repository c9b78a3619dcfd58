// Scenario: spec §5 T6 (job prefix and namespace), T8 (placement failure on reschedule), T11
// (ACL), T13 (allocation filtering) and -output=json, each through the real command (a
// subprocess) against one simulator per test group over HTTP. T13's allocations are the
// upstream stubs, served in place of the job's own by a reverse proxy in front of the simulator,
// and the run is a -dry-run, so the printed plan says which allocations survive the filter.
import { jest } from '@jest/globals';
import type { Job } from '../../lib/nomad/types';
import { allocationsOf, type Harness, simpleJob, startHarness, waitAllRunning } from '../engine/harness';
import { E2E_ADDR } from '../sim/helpers/target';
import { type CliResult, runCli, runCliPool } from './run-cli';
import { type StubProxy, startStubProxy } from './stub-proxy';

jest.setTimeout(120_000);
const RESTART = 'PUT /v1/client/allocation/:id/restart';
const STOP = 'PUT /v1/allocation/:id/stop';

describe('nomad-restart against any Nomad (simulator, or NOMAD_E2E_ADDR)', () => {
  it('reports a job that does not exist (T6.2)', async () => {
    // Arrange
    const h = E2E_ADDR ? undefined : await startHarness({});
    const address = E2E_ADDR ?? h?.sim.address ?? '';

    // Act
    const result = await runCli(['-yes', 'not-valid'], { NOMAD_ADDR: address });
    await h?.close();

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('No job(s) with prefix or ID "not-valid" found\n');
  });
});

if (E2E_ADDR) {
  console.log(
    `not run against ${E2E_ADDR}: T6, T8, T11, T13 and -output=json set up jobs through the simulator control API`,
  );
} else {
  describe('nomad-restart Nomad tests', () => {
    describe('job prefix and namespace (T6)', () => {
      let h: Harness;
      let results: CliResult[];
      const CASES = [
        { name: '6.1 prefix match in default namespace', args: ['test_job'] },
        { name: '6.3 prefix matches multiple jobs', args: ['-namespace', 'prod', 'test_job'] },
        { name: '6.4 prefix matches multiple jobs across namespaces', args: ['-namespace', '*', 'test_job'] },
        {
          name: '6.5 unique prefix match across namespaces',
          args: ['-namespace', '*', 'test_job_restart_prod'],
        },
      ];
      beforeAll(async () => {
        const job = (id: string, namespace: string): Job => ({
          ...simpleJob(id, 'batch', 1),
          Namespace: namespace,
        });
        h = await startHarness({
          namespaces: ['prod'],
          jobs: [
            job('test_job_restart', 'default'),
            job('test_job_restart', 'prod'),
            job('test_job_restart_prod_ns', 'prod'),
          ],
        });
        const env = { NOMAD_ADDR: h.sim.address };
        results = await runCliPool(CASES.map((c) => ({ args: ['-yes', ...c.args], env })));
      });
      afterAll(() => h.close());
      const result = (i: number) => results[i] as CliResult;

      it('restarts the one job the prefix matches in the default namespace (6.1)', () => {
        // Assert
        expect(result(0).code).toBe(0);
        expect(result(0).stdout).toContain('Job restarted successfully!');
        const restarted = h.sim.control
          .requestLog()
          .filter((r) => r.method === 'PUT' && r.path.endsWith('/restart'));
        expect(restarted.length).toBeGreaterThanOrEqual(1);
      });

      it.each([
        { i: 1, name: '6.3 within prod' },
        { i: 2, name: '6.4 across namespaces' },
      ])('refuses a prefix that matches several jobs ($name)', ({ i }) => {
        // Assert
        expect(result(i).code).toBe(1);
        expect(result(i).stderr).toContain('Prefix "test_job" matched multiple jobs');
      });

      it('uses the namespace of the unique match across namespaces (6.5)', () => {
        // Assert
        expect(result(3).code).toBe(0);
        const prodRestarts = h.sim.control
          .requestLog()
          .filter((r) => r.path.endsWith('/restart') && r.query.includes('namespace=prod'));
        expect(prodRestarts).toHaveLength(1);
      });
    });

    describe('reschedule with no eligible node (T8)', () => {
      it('stops on the placement failure after the first batch: exit 1, two stops', async () => {
        // Arrange
        const h = await startHarness({ jobs: [simpleJob('test_job_restart_reschedule_fail', 'service', 3)] });
        try {
          await waitAllRunning(h, 'test_job_restart_reschedule_fail', 3);
          for (const node of h.sim.control.state().nodes()) h.sim.control.setNodeEligibility(node.ID, false);

          // Act
          const result = await runCli(
            ['-batch-size', '2', '-reschedule', '-yes', 'test_job_restart_reschedule_fail'],
            { NOMAD_ADDR: h.sim.address },
          );

          // Assert
          expect(result.code).toBe(1);
          expect(result.stdout).toContain('==> <ts>: Stopping job restart due to unrecoverable error');
          expect(result.stdout).toContain('==> <ts>: Job restart finished with errors');
          expect(result.stderr).toContain('No nodes were eligible for evaluation');
          expect(h.sim.control.counters()[STOP]).toBe(2);
        } finally {
          await h.close();
        }
      });
    });

    describe('ACL (T11)', () => {
      const JOB = 'test_job_restart_acl';
      const CASES = [
        {
          name: '11.1 no token',
          token: undefined,
          job: JOB,
          code: 1,
          err: `Error querying job "${JOB}": Unexpected response code: 403 (Permission denied)`,
        },
        {
          name: '11.2 alloc-lifecycle not enough',
          token: 'lifecycle-secret',
          job: JOB,
          code: 1,
          err: 'Permission denied',
        },
        {
          name: '11.3 read-job not enough',
          token: 'read-secret',
          job: JOB,
          code: 1,
          err: 'Permission denied',
        },
        {
          name: '11.4 alloc-lifecycle and read-job allowed',
          token: 'both-secret',
          job: JOB,
          code: 0,
          err: '',
        },
        {
          name: '11.5 job prefix requires list-jobs',
          token: 'both-secret',
          job: 'tes',
          code: 1,
          err: 'Error querying job "tes": Unexpected response code: 404 (job not found)',
        },
        { name: '11.6 job prefix works with list-jobs', token: 'list-secret', job: 'tes', code: 0, err: '' },
      ];
      let h: Harness;
      let results: CliResult[];
      beforeAll(async () => {
        const caps = (...c: string[]) => ({ default: c });
        h = await startHarness({
          jobs: [simpleJob(JOB, 'batch', 1)],
          acl: {
            enabled: true,
            tokens: [
              { secret: 'root-secret', management: true },
              { secret: 'lifecycle-secret', namespaces: caps('alloc-lifecycle') },
              { secret: 'read-secret', namespaces: caps('read-job') },
              { secret: 'both-secret', namespaces: caps('alloc-lifecycle', 'read-job') },
              { secret: 'list-secret', namespaces: caps('list-jobs', 'alloc-lifecycle', 'read-job') },
            ],
          },
        });
        await waitAllRunning(h, JOB, 1);
        const runs = CASES.map((c) => ({
          args: ['-yes', ...(c.token === undefined ? [] : ['-token', c.token]), c.job],
          env: { NOMAD_ADDR: h.sim.address },
        }));
        results = await runCliPool(runs);
      });
      afterAll(() => h.close());

      it.each(CASES.map((c, i) => ({ ...c, i })))('$name', ({ i, code, err, token }) => {
        // Arrange
        const result = results[i] as CliResult;

        // Assert
        expect(result.code).toBe(code);
        if (err !== '') expect(result.stderr).toContain(err);
        else expect(result.stdout).toContain('Job restarted successfully!');
        if (token !== undefined) expect(result.stdout + result.stderr).not.toContain(token);
      });
    });

    describe('allocation filtering (T13)', () => {
      const VERSIONS: Record<number, Record<string, string[]>> = {
        1: { group_1: ['task_1'], group_2: ['task_1', 'task_2'], group_3: ['task_3'] },
        2: { group_1: ['task_1'], group_2: ['task_2'] },
      };
      const jobVersion = (version: number): Job => ({
        ...simpleJob('example', 'service', 1),
        Version: version,
        TaskGroups: Object.entries(VERSIONS[version] ?? {}).map(([name, tasks]) => ({
          Name: name,
          Count: 1,
          Tasks: tasks.map((t) => ({ Name: t, Driver: 'mock_driver', Config: {} })),
        })),
      });
      const stubs = Object.entries(VERSIONS).flatMap(([version, groups]) =>
        Object.keys(groups).flatMap((group) =>
          ['run', 'stop'].flatMap((desired) =>
            ['running', 'complete'].flatMap((client) => {
              const id = `job_v${version}_${group}_${desired}_${client}`;
              const stub = {
                ID: id,
                JobID: 'example',
                Namespace: 'default',
                JobVersion: Number(version),
                TaskGroup: group,
                DesiredStatus: desired,
                ClientStatus: client,
                CreateIndex: 10,
                ModifyIndex: 10,
              };
              return [stub, { ...stub, ID: `${id}_r`, NextAllocation: 'next' }];
            }),
          ),
        ),
      );
      const survivors = (version: number, group: string) =>
        ['run_running', 'run_complete', 'stop_running'].map((s) => `job_v${version}_${group}_${s}`);
      const CASES = [
        {
          name: '13.1 skip by group',
          args: ['-group', 'group_1'],
          survive: [...survivors(1, 'group_1'), ...survivors(2, 'group_1')],
        },
        { name: '13.2 skip by old group', args: ['-group', 'group_3'], survive: survivors(1, 'group_3') },
        {
          name: '13.3 skip by task',
          args: ['-task', 'task_2'],
          survive: [...survivors(1, 'group_2'), ...survivors(2, 'group_2')],
        },
        { name: '13.4 skip by old task', args: ['-task', 'task_3'], survive: survivors(1, 'group_3') },
        {
          name: '13.5 skip by group and task',
          args: ['-group', 'group_1', '-group', 'group_2', '-task', 'task_2'],
          survive: [...survivors(1, 'group_2'), ...survivors(2, 'group_2')],
        },
        {
          name: '13.6 skip by status',
          args: [],
          survive: ['group_1', 'group_2', 'group_3']
            .flatMap((g) => survivors(1, g))
            .concat(survivors(2, 'group_1'), survivors(2, 'group_2')),
        },
        { name: '13.7 no matches by group', args: ['-group', 'group_404'], survive: [] },
        { name: '13.8 no matches by task', args: ['-task', 'task_404'], survive: [] },
        {
          name: '13.9 no matches by task with group',
          args: ['-group', 'group_1', '-task', 'task_2'],
          survive: [],
        },
      ];
      let h: Harness;
      let proxy: StubProxy;
      let results: CliResult[];
      beforeAll(async () => {
        h = await startHarness({ jobs: [jobVersion(2)] });
        proxy = await startStubProxy(h.sim.address, {
          '/v1/job/example/allocations': stubs,
          '/v1/job/example/versions': { Versions: [jobVersion(2), jobVersion(1)], Diffs: null },
        });
        const env = { NOMAD_ADDR: proxy.address };
        results = await runCliPool(
          CASES.map((c) => ({ args: [...c.args, '-dry-run', '-verbose', '-yes', 'example'], env })),
        );
      });
      afterAll(async () => {
        await proxy.close();
        await h.close();
      });

      it.each(CASES.map((c, i) => ({ ...c, i })))('$name', ({ i, survive }) => {
        // Arrange
        const result = results[i] as CliResult;

        // Act
        const planned = [...result.stdout.matchAll(/PUT \/v1\/client\/allocation\/(\w+)\/restart/g)].map(
          (m) => m[1],
        );
        const skipped = [...result.stdout.matchAll(/Skipping allocation "(\w+)"/g)].map((m) => m[1]);

        // Assert
        expect(result.code).toBe(0);
        expect([...new Set(planned)].sort()).toEqual([...survive].sort());
        if (survive.length === 0) expect(result.stdout).toBe('No allocations to restart\n');
        else
          expect(skipped.sort()).toEqual(
            stubs
              .map((s) => s.ID)
              .filter((id) => !survive.includes(id))
              .sort(),
          );
        expect(h.sim.control.counters()[RESTART] ?? 0).toBe(0);
      });
    });

    describe('-output=json', () => {
      it('prints each progress event as one JSON object per line', async () => {
        // Arrange
        const h = await startHarness({ jobs: [simpleJob('web', 'service', 2)] });
        try {
          await waitAllRunning(h, 'web', 2);

          // Act
          const result = await runCli(['-output=json', '-yes', 'web'], { NOMAD_ADDR: h.sim.address });

          // Assert
          expect(result.code).toBe(0);
          const events = result.stdout
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as { type: string });
          expect(events.map((e) => e.type)).toEqual([
            'restart-started',
            'allocation-restarting',
            'allocation-restarting',
            'finished',
          ]);
          expect(allocationsOf(h, 'web').every((a) => a.TaskStates)).toBe(true);
        } finally {
          await h.close();
        }
      });
    });
  });
}
