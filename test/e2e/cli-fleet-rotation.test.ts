// Scenario (issue #38's must-show): a rotation, and `nomad-restart fleet -uses-variable <path>
// -stale -yes` through the real command (a subprocess running the synthesized fleet state machine
// through the local engine) against the simulator's rotation scenario (`sim/scenarios/rotation.json`:
// six jobs in two namespaces; `nomad/jobs/shared/db` of `payments` is read by three — a nomadVar,
// a nomadVarList on its prefix, and the implicit job path of `shared`'s group `db` — one more job
// has its template from a file), with ACLs on and the README's fleet policy, its variables `list`
// rule included, as the command's token. A run before the change restarts nothing and its cost is
// counted from the request log; after the variable changes, a run restarts exactly the three
// consumers' allocations and names the job it cannot inspect; a second run restarts nothing, says
// `All … started after …`, exits 0, takes no lock and starts no job.
import { bundledRotationScenario, ROTATION } from '../../sim/index';
import { MANAGEMENT_TOKEN, readmeFleetPolicyToken } from '../fixtures/readme-policy';
import { putVariable } from '../fixtures/rotation';
import { type Harness, startHarness, waitAllRunning } from '../steps/helpers/harness';
import { fleetEnv, restartedJobs } from './helpers/fleet-fixture';
import { runCli } from './helpers/run-cli';

const { variable } = ROTATION;
const ROTATION_RUN = ['fleet', '-namespace', '*', '-uses-variable', variable.path, '-stale', '-yes'];
const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The rotation scenario running, the command's token holding the README's fleet policy. */
async function openRotation(): Promise<Harness> {
  const scenario = bundledRotationScenario();
  const namespaces = ['default', ...(scenario.namespaces ?? [])];
  const acl = {
    enabled: true,
    tokens: [readmeFleetPolicyToken(namespaces), { secret: MANAGEMENT_TOKEN, management: true }],
  };
  const harness = await startHarness({}, { scenario: { ...scenario, acl } });
  for (const entry of scenario.jobs) {
    const job = 'Job' in entry ? entry.Job : entry;
    await waitAllRunning(harness, job.ID, ROTATION.allocationsPerJob, job.Namespace);
  }
  return harness;
}

/** The requests a run made (logged from `from` on), as `METHOD path`. */
const requestsSince = (harness: Harness, from: number): string[] =>
  harness.sim.control
    .requestLog()
    .slice(from)
    .map((e) => `${e.method} ${e.path}`);

const restarts = (harness: Harness) =>
  harness.sim.control.requestLog().filter((e) => e.method === 'PUT' && RESTART.test(e.path)).length;

describe('nomad-restart fleet -uses-variable -stale, before and after a rotation', () => {
  it('restarts nothing before the change, exactly the three consumers after it, and nothing on a second run', async () => {
    // Arrange
    h = await openRotation();

    // Act
    const before = await runCli(ROTATION_RUN, fleetEnv(h));
    const beforeLog = requestsSince(h, 0);
    await putVariable(h, variable.namespace, variable.path);
    const first = await runCli(ROTATION_RUN, fleetEnv(h));
    const restartedByFirst = restarts(h);
    const fromSecond = h.sim.control.requestLog().length;
    const second = await runCli(ROTATION_RUN, fleetEnv(h));

    // Assert: before the change, nothing is stale, and what that cost
    expect(before.stderr).toBe('');
    expect(before.code).toBe(0);
    expect(before.stdout).toContain(
      '==> <ts>: Found 1 variables under "nomad/jobs/shared/db" in namespace "payments"',
    );
    for (const { job } of ROTATION.consumers)
      expect(before.stdout).toContain(
        `All 2 allocations of job "${job}" in namespace "payments" started after <ts>`,
      );
    // One jobs listing (and, with -namespace '*', the namespaces the token may list), one
    // specification per candidate job, one variables listing per path and namespace, one
    // allocation listing per consumer job, nothing else: no write, no lock, no job started.
    expect(beforeLog.filter((r) => r === 'GET /v1/jobs')).toHaveLength(1);
    expect(beforeLog.filter((r) => r === 'GET /v1/namespaces')).toHaveLength(1);
    expect(beforeLog.filter((r) => /^GET \/v1\/job\/[^/]+$/.test(r))).toHaveLength(6);
    expect(beforeLog.filter((r) => r === 'GET /v1/vars')).toHaveLength(1);
    expect(beforeLog.filter((r) => /^GET \/v1\/job\/[^/]+\/allocations$/.test(r))).toHaveLength(3);
    expect(beforeLog).toHaveLength(1 + 1 + 6 + 1 + 3);

    // Assert: after the change, the three consumers' allocations, and the job it cannot inspect named
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(restartedJobs(h)).toEqual(['payments/checkout', 'payments/ledger', 'payments/shared']);
    expect(restartedByFirst).toBe(6);
    expect(first.stdout).toContain(
      '==> <ts>: Job "reports" in namespace "default" is not inspectable: template "local/reports.env" read from a file ("/etc/nomad/templates/reports.env.tpl"); skipped (-filter selects it)',
    );
    expect(first.stdout).toContain('==> <ts>: Restarting 6 allocations of 3 jobs');
    expect(first.stdout).toMatch(/^Fleet restart finished: 3 jobs restarted, 0 failed, 1 skipped$/m);

    // Assert: a second run restarts nothing, writes nothing, exits 0
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    for (const { job } of ROTATION.consumers)
      expect(second.stdout).toContain(
        `All 2 allocations of job "${job}" in namespace "payments" started after <ts>`,
      );
    expect(second.stdout).toMatch(/^Fleet restart finished: 0 jobs restarted, 0 failed, 4 skipped$/m);
    expect(restarts(h)).toBe(restartedByFirst);
    expect(requestsSince(h, fromSecond).filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('prints the plan of -dry-run -stale after the change, the consumers and the job it cannot inspect, and writes nothing', async () => {
    // Arrange
    h = await openRotation();
    await putVariable(h, variable.namespace, variable.path);
    const from = h.sim.control.requestLog().length;

    // Act
    const result = await runCli(['fleet', '-dry-run', ...ROTATION_RUN.slice(1)], fleetEnv(h));

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Dry run: would restart 6 allocations of 3 jobs');
    expect(result.stdout).toContain('Job "reports" in namespace "default" is not inspectable');
    expect(result.stdout).toContain('Job "checkout" in namespace "payments" (1 of 3): 2 allocations');
    expect(requestsSince(h, from).filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(restarts(h)).toBe(0);
  });
});
