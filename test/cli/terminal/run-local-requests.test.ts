// Scenario: the terminal runs Validate input and Plan before it loads the engine, and hands the
// engine the plan it made (lib/engines/local/plan-first.ts): Nomad sees exactly the requests it saw
// when the engine ran both steps itself, in the same order. The expected lists were read from the
// simulator's request log with the command before that change; a request made twice (the plan
// read again by the engine's Plan Task) or one left out shows here.

import { type E2eTarget, notOnAgent, openE2e } from '../../e2e/helpers/e2e-target';
import { runCommand } from '../../e2e/helpers/run-command';
import { simpleJob } from '../../steps/helpers/harness';

const JOB = 'plan_first_web';
const RESTART = /^PUT \/v1\/client\/allocation\/<id>\/restart\?/;
const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Each logged request as `METHOD path?query`, allocation and evaluation IDs as `<id>`. */
function requestsOf(target: E2eTarget): string[] {
  return (target.sim?.control.requestLog() ?? []).map((r) =>
    `${r.method} ${r.path}${r.query === '' ? '' : `?${r.query}`}`.replace(ID, '<id>'),
  );
}

/** The requests up to and including the first write to an allocation (the plan and the lock before it). */
function untilFirstRestart(requests: readonly string[]): string[] {
  const first = requests.findIndex((r) => RESTART.test(r));
  return first === -1 ? [...requests] : requests.slice(0, first + 1);
}

const describeSim = notOnAgent('plan-first requests') ? describe.skip : describe;

describeSim('a local run’s requests to Nomad, the plan made before the engine', () => {
  let target: E2eTarget;
  beforeEach(async () => {
    target = await openE2e({ jobs: [simpleJob(JOB, 'service', 6)] });
    await target.waitRunning(JOB, 6);
    target.sim?.control.resetCounters();
  });
  afterEach(async () => {
    await target.close();
  });

  it('sends a job not found’s requests once each', async () => {
    // Act
    const result = await runCommand(['-yes', 'no_such_job'], target.env);

    // Assert
    expect(result.stderr).toBe('No job(s) with prefix or ID "no_such_job" found\n');
    expect(result.code).toBe(1);
    expect(requestsOf(target)).toEqual(EXPECTED.notFound);
  });

  it('sends an unknown task’s requests once each', async () => {
    // Act
    const result = await runCommand(['-yes', '-task', 'task_404', JOB], target.env);

    // Assert
    expect(result.stdout).toBe('No allocations to restart\n');
    expect(result.code).toBe(0);
    expect(requestsOf(target)).toEqual(EXPECTED.unknownTask);
  });

  it('sends a 6-allocation restart’s plan and lock requests once each, before its first restart', async () => {
    // Act
    const result = await runCommand(['-yes', '-batch-size', '2', JOB], target.env);

    // Assert
    expect(result.code).toBe(0);
    const requests = requestsOf(target);
    expect(untilFirstRestart(requests)).toEqual(EXPECTED.sixAllocationsUntilFirstRestart);
    expect(requests.filter((r) => RESTART.test(r))).toHaveLength(6);
  });

  it('hands a plan that failed on a 503 to the engine, whose Retry reads the job again once', async () => {
    // Arrange
    target.sim?.control.injectFault({ pathSuffix: `/v1/job/${JOB}`, nth: 1, status: 503, body: '' });

    // Act
    const result = await runCommand(['-yes', '-batch-size', '2', JOB], target.env);

    // Assert
    expect(result.code).toBe(0);
    const requests = requestsOf(target);
    expect(requests.filter((r) => r === EXPECTED.jobRead)).toHaveLength(EXPECTED.jobReadsAfter503);
    expect(requests.filter((r) => RESTART.test(r))).toHaveLength(6);
  });
});

/**
 * Read from the simulator's log with the command before the plan was made first, with #41's request
 * budget: a plan that restarts nothing takes no lock and writes no record, a run renews its lock
 * only when the lease needs it and reads its request variable at most once a second from its lock;
 * and no versions read while every allocation runs the job's version (lib/steps/plan/job-versions.ts).
 */
const EXPECTED = {
  notFound: ['GET /v1/jobs?per_page=20&prefix=no_such_job'],
  unknownTask: [
    `GET /v1/jobs?per_page=20&prefix=${JOB}`,
    `GET /v1/job/${JOB}?namespace=default`,
    `GET /v1/job/${JOB}/allocations?all=true&namespace=default`,
  ],
  sixAllocationsUntilFirstRestart: [
    `GET /v1/jobs?per_page=20&prefix=${JOB}`,
    `GET /v1/job/${JOB}?namespace=default`,
    `GET /v1/job/${JOB}/allocations?all=true&namespace=default`,
    `PUT /v1/var/nomad-restart/locks/${JOB}?lock-acquire=&namespace=default`,
    `GET /v1/var/nomad-restart/history/${JOB}?namespace=default`,
    `PUT /v1/var/nomad-restart/history/${JOB}?cas=0&namespace=default`,
    `GET /v1/job/${JOB}/deployments?all=true&namespace=default`,
    'PUT /v1/client/allocation/<id>/restart?namespace=default',
  ],
  jobRead: `GET /v1/job/${JOB}?namespace=default`,
  jobReadsAfter503: 2,
};
