// Scenario (issue #38's must-show): after a rotation, `nomad-restart fleet -uses-variable <path>
// -stale -yes` through the real command (a subprocess running the synthesized fleet state machine
// through the local engine) against the simulator with ACLs on and the README's fleet policy, its
// variables `list` rule included. Six jobs in two namespaces; `nomad/jobs/shared/db` is read by
// three (a nomadVar, a nomadVarList on its prefix, the implicit job path of `shared`'s group `db`)
// and changed after every allocation started. The first run restarts exactly those three jobs'
// allocations and names the job whose template is read from a file; a second run restarts
// nothing, says `All … started after …`, exits 0, takes no lock and starts no job; what it cost
// is counted from the simulator's request log.
import type { RequestLogEntry } from '../../sim/index';
import { readmeFleetPolicyToken } from '../fixtures/readme-policy';
import { putVariable, ROTATION_JOBS, ROTATION_NAMESPACES, SHARED_DB } from '../fixtures/rotation';
import type { Harness } from '../steps/helpers/harness';
import { fleetEnv, openFleet, restartedJobs, writes } from './helpers/fleet-fixture';
import { runCli } from './helpers/run-cli';

const ROTATION_RUN = ['fleet', '-namespace', '*', '-uses-variable', SHARED_DB, '-stale', '-yes'];

const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The rotation's fleet running, the variable changed in both namespaces after every allocation started. */
async function rotated(): Promise<Harness> {
  const harness = await openFleet({ namespaces: ROTATION_NAMESPACES, jobs: [...ROTATION_JOBS] });
  expect(readmeFleetPolicyToken(['default', ...ROTATION_NAMESPACES]).variables?.['prod']).toHaveProperty(
    'nomad/jobs/*',
    ['list'],
  );
  await harness.sleep(1_000, new AbortController().signal);
  await putVariable(harness, 'default', SHARED_DB);
  await putVariable(harness, 'prod', SHARED_DB);
  return harness;
}

/** The requests logged since `from`, as `METHOD path`. */
const since = (harness: Harness, from: number): RequestLogEntry[] =>
  harness.sim.control.requestLog().slice(from);

describe('nomad-restart fleet -uses-variable -stale after a rotation', () => {
  it('restarts exactly the three consumers’ allocations, then a second run restarts nothing and exits 0', async () => {
    // Arrange
    h = await rotated();

    // Act
    const first = await runCli(ROTATION_RUN, fleetEnv(h));
    const afterFirst = h.sim.control.requestLog().length;
    const second = await runCli(ROTATION_RUN, fleetEnv(h));

    // Assert: the first run
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(restartedJobs(h)).toEqual(['default/api', 'default/shared', 'prod/worker']);
    expect(h.sim.control.requestLog().filter((e) => e.method === 'PUT' && RESTART.test(e.path))).toHaveLength(
      6,
    );
    expect(first.stdout).toContain(
      '==> <ts>: Found 1 variables under "nomad/jobs/shared/db" in namespace "default"',
    );
    expect(first.stdout).toContain(
      '==> <ts>: Found 1 variables under "nomad/jobs/shared/db" in namespace "prod"',
    );
    expect(first.stdout).toContain(
      '==> <ts>: Job "legacy" in namespace "default" is not inspectable: template "local/app.env" read from a file ("local/app.tpl"); skipped (-filter selects it)',
    );
    expect(first.stdout).toContain('==> <ts>: Restarting 6 allocations of 3 jobs');
    expect(first.stdout).toMatch(/^Fleet restart finished: 3 jobs restarted, 0 failed, 1 skipped$/m);

    // Assert: the second run
    const log = since(h, afterFirst);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    for (const job of [
      'job "api" in namespace "default"',
      'job "shared" in namespace "default"',
      'job "worker" in namespace "prod"',
    ])
      expect(second.stdout).toContain(`All 2 allocations of ${job} started after <ts>`);
    expect(second.stdout).toContain('==> <ts>: Restarting 0 allocations of 0 jobs');
    expect(second.stdout).toMatch(/^Fleet restart finished: 0 jobs restarted, 0 failed, 4 skipped$/m);
    expect(writes(h).filter((e) => log.includes(e))).toEqual([]);
    // What a run where nothing changed costs: one jobs listing (and, with -namespace '*', the
    // namespaces the token may list), one specification per candidate job, one variables listing
    // per path and namespace, one allocation listing per consumer job, nothing else.
    const requests = log.map((e) => `${e.method} ${e.path}`);
    expect(requests.filter((r) => r === 'GET /v1/jobs')).toHaveLength(1);
    expect(requests.filter((r) => r === 'GET /v1/namespaces')).toHaveLength(1);
    expect(requests.filter((r) => /^GET \/v1\/job\/[^/]+$/.test(r))).toHaveLength(6);
    expect(requests.filter((r) => r === 'GET /v1/vars')).toHaveLength(2);
    expect(requests.filter((r) => /^GET \/v1\/job\/[^/]+\/allocations$/.test(r))).toHaveLength(3);
    expect(requests).toHaveLength(1 + 1 + 6 + 2 + 3);
  });
});
