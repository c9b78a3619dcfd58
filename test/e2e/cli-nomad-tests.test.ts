// Scenario: Nomad's `command/job_restart_test.go` T6 (job prefix and namespace), T8 (placement
// failure on reschedule), T11 (ACL), T13 (allocation filtering) and -output=json, each through the
// real command (a subprocess) against one simulator per test group over HTTP, or against the agent
// at NOMAD_E2E_ADDR (all but T11, which needs ACL tokens). T13's allocations are the upstream
// stubs, served in place of the job's own by a reverse proxy in front of the target, and the run is
// a -dry-run, so the printed plan says which allocations survive the filter. What the command did
// is read back through the API: task events and stopped allocations.

import type { AllocListStub, Job } from '../../lib/nomad/types';
import { T11_CASES, T11_JOB, T11_TOKENS } from '../fixtures/t11-cases';
import { type Harness, simpleJob, startHarness, waitAllRunning } from '../steps/helpers/harness';
import { describeSim, type E2eTarget, openE2e, wasRestarted } from './helpers/e2e-target';
import { type CliResult, runCli, runCliPool } from './helpers/run-cli';
import { type StubProxy, startStubProxy } from './helpers/stub-proxy';

const STOP = 'PUT /v1/allocation/:id/stop';
const restartedIn = (allocations: readonly AllocListStub[]) => allocations.filter(wasRestarted).length;

describe('nomad-restart Nomad tests', () => {
  it('reports a job that does not exist (T6.2)', async () => {
    // Arrange
    const target = await openE2e();

    // Act
    const result = await runCli(['-yes', 'not-valid'], target.env);
    await target.close();

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('No job(s) with prefix or ID "not-valid" found\n');
  });

  describe('job prefix and namespace (T6)', () => {
    let target: E2eTarget;
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
      target = await openE2e({
        namespaces: ['prod'],
        jobs: [
          job('test_job_restart', 'default'),
          job('test_job_restart', 'prod'),
          job('test_job_restart_prod_ns', 'prod'),
        ],
      });
      // The namespaces as the target names them (an agent keeps each run's fixtures apart).
      const named = (args: string[]) =>
        args.map((a, i) => (args[i - 1] === '-namespace' ? target.namespace(a) : a));
      results = await runCliPool(CASES.map((c) => ({ args: ['-yes', ...named(c.args)], env: target.env })));
    });
    afterAll(() => target.close());
    const result = (i: number) => results[i] as CliResult;

    it('restarts the one job the prefix matches in the default namespace (6.1)', async () => {
      // Act
      const restarted = await target.allocationsWhen('test_job_restart', (a) => restartedIn(a) === 1);

      // Assert
      expect(result(0).code).toBe(0);
      expect(result(0).stdout).toContain('Job restarted successfully!');
      expect(restartedIn(restarted)).toBe(1);
    });

    it.each([
      { i: 1, name: '6.3 within prod' },
      { i: 2, name: '6.4 across namespaces' },
    ])('refuses a prefix that matches several jobs ($name)', ({ i }) => {
      // Assert
      expect(result(i).code).toBe(1);
      expect(result(i).stderr).toContain('Prefix "test_job" matched multiple jobs');
    });

    it('uses the namespace of the unique match across namespaces (6.5)', async () => {
      // Act
      const matched = await target.allocationsWhen(
        'test_job_restart_prod_ns',
        (a) => restartedIn(a) === 1,
        'prod',
      );
      const sameIdInProd = await target.allocations('test_job_restart', 'prod');

      // Assert
      expect(result(3).code).toBe(0);
      expect(restartedIn(matched)).toBe(1);
      expect(restartedIn(sameIdInProd)).toBe(0);
      if (target.sim) {
        const prodRestarts = target.sim.control
          .requestLog()
          .filter((r) => r.path.endsWith('/restart') && r.query.includes('namespace=prod'));
        expect(prodRestarts).toHaveLength(1);
      }
    });
  });

  describe('reschedule with no eligible node (T8)', () => {
    it('stops on the placement failure after the first batch: exit 1, two stops', async () => {
      // Arrange
      const JOB = 'test_job_restart_reschedule_fail';
      const target = await openE2e({ jobs: [simpleJob(JOB, 'service', 3)] });
      try {
        await target.waitRunning(JOB, 3);
        for (const node of await target.readyNodes()) await target.setEligibility(node.ID, false);

        // Act
        const result = await runCli(['-batch-size', '2', '-reschedule', '-yes', JOB], target.env);
        const allocations = await target.allocations(JOB);

        // Assert
        expect(result.code).toBe(1);
        expect(result.stdout).toContain('==> <ts>: Stopping job restart due to unrecoverable error');
        expect(result.stdout).toContain('==> <ts>: Job restart finished with errors');
        expect(result.stderr).toContain('No nodes were eligible for evaluation');
        expect(allocations.map((a) => a.DesiredStatus).sort()).toEqual(['run', 'stop', 'stop']);
        expect(allocations.filter((a) => a.NextAllocation)).toEqual([]);
        if (target.sim) expect(target.sim.control.counters()[STOP]).toBe(2);
      } finally {
        await target.close();
      }
    });
  });

  describeSim(
    'ACL (T11)',
    'runs on an ACL-enabled agent in acl-agent-nomad-tests.test.ts (NOMAD_E2E_ACL_ADDR, NOMAD_E2E_ACL_TOKEN)',
    () => {
      const JOB = T11_JOB;
      const CASES = T11_CASES;
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
              ...Object.entries(T11_TOKENS).map(([name, c]) => ({
                secret: `${name}-secret`,
                namespaces: caps(...c),
              })),
            ],
          },
        });
        await waitAllRunning(h, JOB, 1);
        const runs = CASES.map((c) => ({
          args: ['-yes', ...(c.token === undefined ? [] : ['-token', `${c.token}-secret`]), c.job],
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
        if (token !== undefined) expect(result.stdout + result.stderr).not.toContain(`${token}-secret`);
      });
    },
  );

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
    let target: E2eTarget;
    let proxy: StubProxy;
    let results: CliResult[];
    beforeAll(async () => {
      target = await openE2e({ jobs: [jobVersion(2)] });
      proxy = await startStubProxy(target.address, {
        '/v1/job/example/allocations': stubs,
        '/v1/job/example/versions': { Versions: [jobVersion(2), jobVersion(1)], Diffs: null },
      });
      const env = { ...target.env, NOMAD_ADDR: proxy.address };
      results = await runCliPool(
        CASES.map((c) => ({ args: [...c.args, '-dry-run', '-verbose', '-yes', 'example'], env })),
      );
    });
    afterAll(async () => {
      await proxy.close();
      await target.close();
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
      expect(proxy.requests('PUT', '/restart')).toBe(0);
    });
  });

  describe('-output=json', () => {
    it('prints each progress event as one JSON object per line', async () => {
      // Arrange
      const target = await openE2e({ jobs: [simpleJob('web', 'service', 2)] });
      try {
        await target.waitRunning('web', 2);
        // Only what this run did counts: the allocations it found running.
        const ours = new Set((await target.allocations('web')).map((a) => a.ID));
        const restartedOfOurs = (all: readonly AllocListStub[]) =>
          restartedIn(all.filter((a) => ours.has(a.ID)));

        // Act
        const result = await runCli(['-output=json', '-yes', 'web'], target.env);
        const allocations = await target.allocationsWhen('web', (a) => restartedOfOurs(a) === 2);

        // Assert
        expect(result.code).toBe(0);
        const events = result.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as { type: string });
        // Nomad's events, and the run-level ones beyond it (issue #40) that print no line in text.
        expect(events.map((e) => e.type)).toEqual([
          'restart-started',
          'run-started',
          'allocation-restarting',
          'allocation-restarting',
          'finished',
          'run-ended',
        ]);
        expect(ours.size).toBe(2);
        expect(restartedOfOurs(allocations)).toBe(2);
      } finally {
        await target.close();
      }
    });
  });
});
