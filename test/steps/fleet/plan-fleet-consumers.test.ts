/**
 * Scenarios: "Plan fleet" with `usesVariables`/`usesSecrets`/`stale` against the simulator over
 * HTTP, under ACLs with the README's fleet policy (its variables `list` rule included) in
 * `default` and `prod`. Six service jobs: three read `nomad/jobs/shared/db` (a nomadVar, a
 * nomadVarList on its prefix, and the job `shared` whose group `db` makes it its implicit path),
 * one reads a Vault secret, one a template from a file, one nothing. What each job's plan became,
 * its time, and the requests counted from the request log.
 */
import { type FleetJobItem, fleetKeys } from '../../../lib/fleet/items';
import { validateExecutionInput } from '../../../lib/restart/execution-input';
import type { FleetSkippedJob } from '../../../lib/steps/fleet/plan-fleet';
import { type PlanFleetPayload, planFleetStep } from '../../../lib/steps/fleet/plan-fleet-step';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import { InvalidInputError } from '../../../lib/workflow/errors';
import type { AclTokenSpec } from '../../../sim/index';
import {
  MANAGEMENT_TOKEN,
  OPERATOR_TOKEN,
  readmeFleetPolicyToken,
  readmePolicyToken,
} from '../../fixtures/readme-policy';
import { putVariable, ROTATION_JOBS, ROTATION_NAMESPACES, SHARED_DB } from '../../fixtures/rotation';
import { clientFor, type Harness, harnessPerTest, waitAllRunning } from '../helpers/harness';

const h = harnessPerTest();

/**
 * The simulator with the rotation's jobs running; `before` runs first, before any job is placed
 * (so what it changes is older than every allocation).
 */
async function open(
  token: AclTokenSpec = readmeFleetPolicyToken(['default', 'prod']),
  before?: (harness: Harness) => Promise<void>,
): Promise<Harness> {
  const harness = await h.start(
    {
      namespaces: ROTATION_NAMESPACES,
      nodes: [{ name: 'client-1' }, { name: 'client-2' }],
      jobs: before === undefined ? [...ROTATION_JOBS] : [],
      acl: { enabled: true, tokens: [token, { secret: MANAGEMENT_TOKEN, management: true }] },
    },
    { token: OPERATOR_TOKEN },
  );
  if (before !== undefined) {
    await before(harness);
    const admin = clientFor(harness.sim, MANAGEMENT_TOKEN);
    for (const j of ROTATION_JOBS) await admin.jobs().register(j, { namespace: j.Namespace ?? 'default' });
    await admin.close();
  }
  for (const j of ROTATION_JOBS) await waitAllRunning(harness, j.ID, 2, j.Namespace);
  return harness;
}

/** The Task's payload, the execution started now on the simulator's clock. */
const payload = (input: unknown, now: number): PlanFleetPayload => ({
  input,
  executionId: 'arn:aws:states:eu-west-1:123456789012:execution:fleet:rotation-1',
  executionName: 'rotation-1',
  startTime: new Date(now).toISOString(),
});

async function plan(harness: Harness, input: Record<string, unknown>, planStore = new MemoryPlanStore()) {
  const from = harness.sim.control.requestLog().length;
  const state = await planFleetStep(
    { nomad: harness.client, planStore, now: harness.now },
    payload(input, harness.now()),
  );
  const keys = fleetKeys('rotation-1');
  return {
    state,
    items: (await planStore.get(keys.items)) as FleetJobItem[],
    skipped: (await planStore.get(keys.skipped)) as FleetSkippedJob[],
    requests: harness.sim.control
      .requestLog()
      .slice(from)
      .map((e) => `${e.method} ${e.path}`),
  };
}

const names = (items: FleetJobItem[]) => items.map((i) => `${i.input.namespace}/${i.input.job}`);

describe('Plan fleet with -uses-variable, -uses-secret and -stale', () => {
  it('selects the three consumers of a variable, each with the time it changed, and names the job it cannot inspect', async () => {
    // Arrange
    const harness = await open();
    const changedDefault = await putVariable(harness, 'default', SHARED_DB);
    const changedProd = await putVariable(harness, 'prod', SHARED_DB);

    // Act
    const { items, skipped, requests } = await plan(harness, {
      namespace: '*',
      usesVariables: [SHARED_DB],
      stale: true,
      yes: true,
    });

    // Assert
    expect(names(items)).toEqual(['default/api', 'default/shared', 'prod/worker']);
    expect(items.map((i) => i.input.startedBefore)).toEqual([
      new Date(changedDefault).toISOString(),
      new Date(changedDefault).toISOString(),
      new Date(changedProd).toISOString(),
    ]);
    expect(items.map((i) => i.allocations)).toEqual([2, 2, 2]);
    expect(skipped).toEqual([
      {
        namespace: 'default',
        job: 'legacy',
        reason: {
          kind: 'not-inspectable',
          templates: ['template "local/app.env" read from a file ("local/app.tpl")'],
        },
      },
    ]);
    const count = (prefix: string) => requests.filter((r) => r.startsWith(prefix)).length;
    expect(count('GET /v1/jobs')).toBe(1);
    expect(count('GET /v1/namespaces')).toBe(1);
    expect(requests.filter((r) => /^GET \/v1\/job\/[^/]+$/.test(r))).toHaveLength(6);
    expect(count('GET /v1/vars')).toBe(2);
    expect(requests.filter((r) => r.endsWith('/allocations'))).toHaveLength(3);
    expect(requests).toHaveLength(1 + 1 + 6 + 2 + 3);
  });

  it('gives each job an input, merged as the item processor merges it, that keeps its own time', async () => {
    // Arrange
    const harness = await open();
    const changed = await putVariable(harness, 'prod', SHARED_DB);
    await putVariable(harness, 'default', SHARED_DB);
    const { items, state } = await plan(harness, {
      namespace: 'prod',
      usesVariables: [SHARED_DB],
      stale: true,
      yes: true,
    });

    // Act: States.JsonMerge($.options, $.item.input, false), validated as the child's first state
    // does, at the fleet's start (the simulator's clock may run ahead of it: the time is kept).
    const options = validateExecutionInput({ ...state.jobOptions, ...items[0]?.input }, changed - 60_000);

    // Assert
    expect(options).toMatchObject({ job: 'worker', namespace: 'prod', startedBefore: changed });
  });

  it('skips a consumer whose allocations all started after the change as fresh, with nothing to start', async () => {
    // Arrange: the variable changes before the jobs are placed (their allocations start after).
    let changed = 0;
    const harness = await open(undefined, async (first) => {
      changed = await putVariable(first, 'default', SHARED_DB);
      await putVariable(first, 'prod', SHARED_DB);
      await first.sleep(1_000, new AbortController().signal);
    });

    // Act
    const { items, skipped, state } = await plan(harness, {
      namespace: '*',
      usesVariables: [SHARED_DB],
      stale: true,
      yes: true,
    });

    // Assert
    expect(items).toEqual([]);
    expect(state.plan.jobs).toBe(0);
    expect(skipped).toContainEqual({
      namespace: 'default',
      job: 'api',
      reason: { kind: 'fresh', startedBefore: changed, allocations: 2 },
    });
    expect(skipped.filter((s) => s.reason.kind === 'fresh').map((s) => s.job)).toEqual([
      'api',
      'shared',
      'worker',
    ]);
  });

  it('skips every job as fresh with a shared -started-before older than every allocation, from one listing', async () => {
    // Arrange
    let before = 0;
    const harness = await open(undefined, async (first) => {
      before = first.now();
      await first.sleep(1_000, new AbortController().signal);
    });

    // Act
    const { items, skipped, requests } = await plan(harness, {
      namespace: '*',
      startedBefore: new Date(before).toISOString(),
      yes: true,
    });

    // Assert
    expect(items).toEqual([]);
    expect(skipped).toHaveLength(6);
    expect(skipped.every((s) => s.reason.kind === 'fresh')).toBe(true);
    expect(requests.filter((r) => r.startsWith('GET /v1/allocations'))).toHaveLength(1);
  });

  it('keeps the job it cannot inspect when -filter selects it too', async () => {
    // Arrange
    const harness = await open();

    // Act
    const { items, skipped } = await plan(harness, {
      namespace: '*',
      filter: 'ID == "legacy" or ID == "static"',
      usesVariables: [SHARED_DB],
      yes: true,
    });

    // Assert
    expect(names(items)).toEqual(['default/legacy']);
    expect(skipped).toEqual([]);
  });

  it('with -stale, gives the job -filter vouches for the newest change under the path in its namespace', async () => {
    // Arrange
    const harness = await open();
    const changed = await putVariable(harness, 'default', SHARED_DB);

    // Act
    const { items } = await plan(harness, {
      namespace: 'default',
      filter: 'ID == "legacy"',
      usesVariables: [SHARED_DB],
      stale: true,
      yes: true,
    });

    // Assert
    expect(items.map((i) => [i.input.job, i.input.startedBefore])).toEqual([
      ['legacy', new Date(changed).toISOString()],
    ]);
  });

  it('selects the consumer of a Vault secret given as vault kv get takes it', async () => {
    // Arrange
    const harness = await open();

    // Act
    const { items, skipped } = await plan(harness, {
      namespace: '*',
      usesSecrets: ['kv/payments/db'],
      yes: true,
    });

    // Assert
    expect(names(items)).toEqual(['prod/payments']);
    expect(skipped.map((s) => s.job)).toEqual(['legacy']);
  });

  it('refuses -stale when the token lists no variable under the path, naming it and the list capability', async () => {
    // Arrange: the one-job policy has no list rule on nomad/jobs/*, so Nomad hides the variable.
    const harness = await open({ ...readmePolicyToken(['default', 'prod']) });
    await putVariable(harness, 'default', SHARED_DB);

    // Act
    const act = plan(harness, { namespace: 'default', usesVariables: [SHARED_DB], stale: true, yes: true });

    // Assert
    await expect(act).rejects.toThrow(InvalidInputError);
    await expect(act).rejects.toThrow(
      'No variable found under "nomad/jobs/shared/db" in namespace "default" for -stale: none exists there, or the token lacks the variables "list" capability on that path (Nomad leaves out of a listing, without an error, the variables a token may not list)',
    );
  });

  it('reads again only the specification of a job changed since the run before, the rest from the plan store', async () => {
    // Arrange: two runs sharing a plan store, as a schedule's runs share the plan bucket; between
    // them `api` gets a new version (its JobModifyIndex moves).
    const harness = await open();
    const kept = new MemoryPlanStore();
    const input = { namespace: '*', usesVariables: [SHARED_DB], yes: true };
    const specReads = (requests: readonly string[]) =>
      requests.filter((r) => /^GET \/v1\/job\/[^/]+$/.test(r)).map((r) => r.slice('GET /v1/job/'.length));

    // Act
    const first = await plan(harness, input, kept);
    const second = await plan(harness, input, kept);
    const api = ROTATION_JOBS.find((j) => j.ID === 'api');
    if (api === undefined) throw new Error('the rotation fixture has no api job');
    const admin = clientFor(harness.sim, MANAGEMENT_TOKEN);
    await admin.jobs().register({ ...api, Meta: { changed: 'yes' } }, { namespace: 'default' });
    await admin.close();
    const third = await plan(harness, input, kept);

    // Assert: the same consumers each time; six specifications, then none, then api's alone.
    for (const run of [first, second, third])
      expect(run.items.map((i) => i.input.job).sort()).toEqual(['api', 'shared', 'worker']);
    expect(specReads(first.requests)).toHaveLength(6);
    expect(specReads(second.requests)).toEqual([]);
    expect(specReads(third.requests)).toEqual(['api']);
  });
});
