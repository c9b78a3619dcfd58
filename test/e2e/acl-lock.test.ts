/**
 * The job's lock as production runs it: ACLs on, the real command holding exactly the README's
 * policy (acl-target.ts: a simulator, or the ACL-enabled agent at NOMAD_E2E_ACL_ADDR). Two runs
 * in a row both restart every allocation, each releasing the lock and leaving its variable for
 * the next run to acquire (as Nomad's release does); a run that lives across
 * several renewals restarts every allocation and ends "Job restart finished", while a second
 * process started meanwhile is refused naming the first; and the policy is the least that works:
 * each lock capability taken away in turn gives its documented warning or refusal,
 * never a stack trace, never exit 0 with work left.
 */

import {
  ACL_ADDR,
  type AclTarget,
  ALLOCATIONS,
  JOB,
  openAclTarget,
  type PolicyVariant,
} from './helpers/acl-target';
import { type CliResult, runCli } from './helpers/run-cli';

/** Between batches: long enough on an agent for the terminal's keeper to renew (every 42 s) too. */
const BATCH_WAIT = ACL_ADDR === undefined ? '2s' : '30s';
const FINISHED = 'Job restart finished\n\nJob restarted successfully!';

let target: AclTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

async function open(variant: PolicyVariant = 'readme'): Promise<AclTarget> {
  target = await openAclTarget(variant);
  return target;
}

/** The run restarted the job and said nothing on stderr. */
function expectFinishedQuietly(result: CliResult): void {
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain(FINISHED);
}

describe('the README’s policy', () => {
  it('lets two runs in a row restart every allocation, the second acquiring the variable the first left', async () => {
    // Arrange
    const t = await open();
    const startedAt = t.now();

    // Act
    const first = await runCli(['-yes', '-batch-size', '2', JOB], t.env());
    const afterFirst = await t.lockVariable();
    const second = await runCli(['-yes', '-batch-size', '2', JOB], t.env());
    const afterSecond = await t.lockVariable();

    // Assert
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.stdout).toContain(FINISHED);
    expect(second.stdout).toContain(FINISHED);
    const left = { items: expect.objectContaining({ engine: 'local' }), locked: false };
    expect([afterFirst, afterSecond]).toEqual([left, left]);
    expect(afterSecond?.items['runId']).not.toBe(afterFirst?.items['runId']);
    const both = { restarted: ALLOCATIONS, signals: 2 * ALLOCATIONS };
    expect(await t.restartedSince(startedAt, both)).toEqual(both);
  });

  it('keeps the job across renewals to the last allocation, refusing a second process meanwhile', async () => {
    // Arrange
    const t = await open();
    const startedAt = t.now();

    // Act: the second process starts once the first holds the job and has restarted one allocation.
    // A 300 s lease: less of it is left than the longest wait at each "Decide", which renews it
    // (lib/steps/lock/lease-renewal.ts; the default 24 h lease needs no renewal in a short run).
    const long = runCli(['-yes', '-batch-size', '1', '-batch-wait', BATCH_WAIT, JOB], {
      ...t.env(),
      LOCK_TTL_SECONDS: '300',
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const second = await runCli(['-yes', JOB], t.env());
    const first = await long;

    // Assert
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^Job "web" in namespace "[^"]+" is already being restarted by run "[^"]+" \(started by .+ with the local engine, since <ts>\)\n$/,
    );
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(FINISHED);
    expect(first.stderr).toBe('');
    const once = { restarted: ALLOCATIONS, signals: ALLOCATIONS };
    expect(await t.restartedSince(startedAt, once)).toEqual(once);
    expect(await t.lockVariable()).toMatchObject({ locked: false });
    // One renewal after each batch, at least (the simulator counts them).
    expect(t.renewals() ?? ALLOCATIONS).toBeGreaterThanOrEqual(ALLOCATIONS);
  });
});

describe('the README’s policy less one lock capability', () => {
  it('without "write": warns naming the capability and the way out, and restarts without the lock', async () => {
    // Arrange
    const t = await open('without-write');

    // Act
    const result = await runCli(['-yes', JOB], t.env('without-write'));

    // Assert
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Restarting job "web" without the lock shared with other operators.');
    expect(result.stderr).toContain(
      'the token needs the variables capability "write" on path "nomad-restart/locks/*"',
    );
    expect(result.stderr).toContain('NOMAD_RESTART_VARIABLES_LOCK=false');
    expect(result.stdout).toContain(FINISHED);
    expect(await t.lockVariable()).toBeUndefined();
  });

  it('without "write" and NOMAD_RESTART_VARIABLES_LOCK=required: refuses before touching anything', async () => {
    // Arrange
    const t = await open('without-write');
    const startedAt = t.now();

    // Act
    const result = await runCli(['-yes', JOB], {
      ...t.env('without-write'),
      NOMAD_RESTART_VARIABLES_LOCK: 'required',
    });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the token needs the variables capability "write"');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const none = { restarted: 0, signals: 0 };
    expect(await t.restartedSince(startedAt, none)).toEqual(none);
  });

  it('without "read": holds and frees the lock as usual (only a refused run cannot name its holder)', async () => {
    // Arrange
    const t = await open('without-read');

    // Act
    const result = await runCli(['-yes', JOB], t.env('without-read'));

    // Assert
    expectFinishedQuietly(result);
    expect(await t.lockVariable()).toMatchObject({ locked: false });
  });
});
