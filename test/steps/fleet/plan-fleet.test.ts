/**
 * Scenarios: "Plan fleet" against the simulator over HTTP, under ACLs with the README's policy in
 * `default` and `prod` plus `node:read` (the fleet's node selectors read Nomad's nodes), never in
 * `staging`. Selection by `namespace: '*'` and a filter on meta, by node prefix, by datacenter;
 * the kinds a fleet skips, with reasons; Nomad's 400 for a malformed filter and the one line for
 * a token without `node:read`, with nothing written; the requests counted from the request log.
 */
import { type FleetJobItem, fleetKeys } from '../../../lib/fleet/items';
import type { Job } from '../../../lib/nomad/types';
import { validateExecutionInput } from '../../../lib/restart/execution-input';
import { NODE_READ_DENIED } from '../../../lib/steps/fleet/node-scope';
import { FLEET_PAGE_SIZE } from '../../../lib/steps/fleet/pages';
import { type PlanFleetPayload, planFleetStep } from '../../../lib/steps/fleet/plan-fleet-step';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import { InvalidInputError } from '../../../lib/workflow/errors';
import type { AclSpec, NodeSpec } from '../../../sim/index';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmeFleetPolicyToken } from '../../fixtures/readme-policy';
import { group, job } from '../../sim/helpers/fixtures';
import { type Harness, harnessPerTest, waitAllRunning } from '../helpers/harness';

const NODES: NodeSpec[] = [
  { id: 'aa110000-0000-4000-8000-000000000001', name: 'client-1', datacenter: 'dc1' },
  { id: 'aa220000-0000-4000-8000-000000000002', name: 'client-2', datacenter: 'dc1' },
  { id: 'bb330000-0000-4000-8000-000000000003', name: 'client-3', datacenter: 'dc2', pool: 'gpu' },
];

const team = (t: string) => ({ Meta: { team: t } });
const service = (id: string, namespace: string, count: number, extra: Partial<Job> = {}): Job =>
  job(id, 'service', [group('web', count, {}, '1h')], {
    Namespace: namespace,
    Datacenters: ['dc1', 'dc2'],
    ...extra,
  });

/** The payments team's jobs, of every kind, and others it must not select. */
const JOBS: Job[] = [
  service('api', 'default', 3, team('payments')),
  service('web', 'prod', 6, { ...team('payments'), Priority: 80 }),
  service('search', 'prod', 2, team('search')),
  service('web', 'staging', 2, team('payments')),
  service('train', 'prod', 2, { ...team('ml'), NodePool: 'gpu' }),
  service('old', 'prod', 1, { ...team('payments'), Stop: true }),
  job('sweep', 'sysbatch', [group('sweep', 1, {}, '1h')], { Namespace: 'prod', ...team('payments') }),
  job('report', 'batch', [group('report', 1, {}, '1h')], {
    Namespace: 'prod',
    ...team('payments'),
    ParameterizedJob: { Payload: 'optional' },
  }),
  job('report/dispatch-1700000000-0a1b2c3d', 'batch', [group('report', 1, {}, '1h')], {
    Namespace: 'prod',
    ...team('payments'),
    ParentID: 'report',
  }),
  job('nightly', 'batch', [group('nightly', 1, {}, '1h')], {
    Namespace: 'prod',
    ...team('payments'),
    Periodic: { Enabled: true, Spec: '0 3 * * *', SpecType: 'cron' },
  }),
];

/**
 * The README's fleet policy (read from it) in `default` and `prod`: the one-job policy, node:read,
 * and node pool read for `-node-pool`.
 */
const fleetAcl = (nodeRead = true): AclSpec => ({
  enabled: true,
  tokens: [
    readmeFleetPolicyToken(['default', 'prod'], nodeRead),
    { secret: MANAGEMENT_TOKEN, management: true },
  ],
});

/** A filter as the request log shows it (form-encoded). */
const query = (filter: string) => new URLSearchParams({ filter }).toString();

const payload = (input: unknown): PlanFleetPayload => ({
  input,
  executionId: 'arn:aws:states:eu-west-1:123456789012:execution:fleet:weekly-1',
  executionName: 'weekly-1',
  startTime: '2026-12-07T05:00:00.000Z',
});

describe('planFleetStep', () => {
  const harness = harnessPerTest();

  async function start(nodeRead = true): Promise<Harness> {
    const h = await harness.start(
      { namespaces: ['prod', 'staging'], nodes: NODES, jobs: JOBS, acl: fleetAcl(nodeRead) },
      { token: OPERATOR_TOKEN },
    );
    await waitAllRunning(h, 'api', 3, 'default');
    await waitAllRunning(h, 'web', 6, 'prod');
    await waitAllRunning(h, 'search', 2, 'prod');
    await waitAllRunning(h, 'train', 2, 'prod');
    h.sim.control.resetCounters();
    return h;
  }

  const deps = (h: Harness, planStore = new MemoryPlanStore()) => ({
    nomad: h.client,
    planStore,
    now: h.now,
  });
  const requests = (h: Harness) => h.sim.control.requestLog().map((r) => `${r.method} ${r.path}?${r.query}`);
  /** Allocations of a job on `nodes`, as the simulator holds them. */
  const placedOn = (h: Harness, namespace: string, jobId: string, nodes: readonly string[]) =>
    h.sim.control
      .state()
      .allocations({ jobId, namespace })
      .filter((a) => a.DesiredStatus === 'run' && nodes.includes(a.NodeID ?? '')).length;

  it('selects by meta across the namespaces the token may list, skipping what cannot restart', async () => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();
    const events: unknown[] = [];

    // Act
    const state = await planFleetStep(
      { ...deps(h, planStore), onFleetEvent: (e) => events.push(e) },
      payload({ namespace: '*', filter: 'Meta.team == "payments"', maxJobs: 3, yes: true }),
    );

    // Assert: the plan, in namespace then ID order, and staging never seen.
    const keys = fleetKeys('weekly-1');
    expect(await planStore.get(keys.items)).toEqual([
      {
        input: { job: 'api', namespace: 'default', fleet: { runId: 'weekly-1', index: 1, of: 2 } },
        executionName: expect.stringMatching(/^api-default-[0-9a-f]{16}$/),
        allocations: 3,
      },
      {
        input: { job: 'web', namespace: 'prod', fleet: { runId: 'weekly-1', index: 2, of: 2 } },
        executionName: expect.stringMatching(/^web-prod-[0-9a-f]{16}$/),
        allocations: 6,
      },
    ]);
    expect(await planStore.get(keys.skipped)).toEqual([
      { namespace: 'prod', job: 'nightly', reason: { kind: 'periodic' } },
      { namespace: 'prod', job: 'old', reason: { kind: 'stopped', status: 'stopped' } },
      { namespace: 'prod', job: 'report', reason: { kind: 'parameterized' } },
      {
        namespace: 'prod',
        job: 'report/dispatch-1700000000-0a1b2c3d',
        reason: { kind: 'child', parentId: 'report' },
      },
      { namespace: 'prod', job: 'sweep', reason: { kind: 'sysbatch' } },
    ]);
    expect(state).toMatchObject({
      run: { runId: 'weekly-1', startedAt: Date.parse('2026-12-07T05:00:00.000Z') },
      plan: { jobs: 2, allocations: 9, skipped: 5, namespaces: ['default', 'prod'], itemsKey: keys.items },
      budget: { maxJobs: 3, maxFailedJobs: 0 },
      jobOptions: { yes: true, batchSize: '1', onError: 'ask' },
      dryRun: false,
    });
    expect(state.jobOptions).not.toHaveProperty('scope');
    expect(events).toEqual([expect.objectContaining({ type: 'fleet-planned', jobs: 2, allocations: 9 })]);
    // Assert: three requests for the whole fleet, none per job.
    expect(requests(h)).toEqual([
      `GET /v1/jobs?${query('Meta.team == "payments"')}&namespace=*&per_page=${FLEET_PAGE_SIZE}`,
      'GET /v1/namespaces?',
      `GET /v1/allocations?${query('ClientStatus == "running" or DesiredStatus == "run"')}&namespace=*&per_page=${FLEET_PAGE_SIZE}&task_states=false`,
    ]);
  });

  it("counts a relative window from the fleet's start, once, for every job", async () => {
    // Arrange
    const h = await start();

    // Act
    const state = await planFleetStep(
      deps(h),
      payload({ namespace: 'prod', windowDuration: '2h', yes: true }),
    );

    // Assert: every job's run gets the same absolute end, however late the Map starts it.
    expect(state.jobOptions.windowEnd).toBe('2026-12-07T07:00:00.000Z');
    expect(state.jobOptions).not.toHaveProperty('windowDuration');
  });

  it("resolves a relative startedBefore once, against the fleet's start: every job gets the same time", async () => {
    // Arrange
    const h = await start();

    // Act
    const state = await planFleetStep(
      deps(h),
      payload({ namespace: 'prod', startedBefore: '2h', yes: true }),
    );

    // Assert: the shared input every job's run gets carries the absolute time.
    expect(state.jobOptions.startedBefore).toBe('2026-12-07T03:00:00.000Z');
  });

  it('orders by priority with the highest last', async () => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();

    // Act
    await planFleetStep(
      deps(h, planStore),
      payload({ namespace: '*', filter: 'Type == "service"', order: 'priority', yes: true }),
    );

    // Assert: web (80) after api, search and train (50, by namespace then ID).
    const items = (await planStore.get(fleetKeys('weekly-1').items)) as { input: { job: string } }[];
    expect(items.map((i) => i.input.job)).toEqual(['api', 'search', 'train', 'web']);
  });

  it("makes each job's input, merged as the item processor merges it, one the one-job execution accepts", async () => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();
    const state = await planFleetStep(
      deps(h, planStore),
      payload({
        namespace: 'prod',
        datacenters: ['dc1'],
        batchSize: '25%',
        onError: 'fail',
        startedBy: 'ops',
      }),
    );
    const [item] = (await planStore.get(fleetKeys('weekly-1').items)) as FleetJobItem[];

    // Act: States.JsonMerge($.options, $.item.input, false) is a shallow merge, the item winning.
    const options = validateExecutionInput({ ...state.jobOptions, ...item?.input });

    // Assert
    expect(options).toMatchObject({
      job: item?.input.job,
      namespace: 'prod',
      batchSize: { value: 25, percent: true },
      onError: 'fail',
      fleet: { runId: 'weekly-1', index: 1 },
      scope: { datacenters: ['dc1'] },
    });
  });

  it('counts only allocations on the node a prefix names, and gives each job that scope', async () => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();
    const node = NODES[2]?.id ?? '';

    // Act
    const state = await planFleetStep(
      deps(h, planStore),
      payload({ namespace: 'prod', nodes: ['bb3'], yes: true }),
    );

    // Assert: the odd prefix is trimmed as Nomad does, and resolved to the full ID.
    expect(state.jobOptions.scope).toEqual({ nodes: [node] });
    const items = (await planStore.get(fleetKeys('weekly-1').items)) as {
      input: { job: string };
      allocations: number;
    }[];
    const expected = ['search', 'train', 'web']
      .map((job) => ({ job, allocations: placedOn(h, 'prod', job, [node]) }))
      .filter((j) => j.allocations > 0);
    expect(expected.length).toBeGreaterThan(0);
    expect(items.map((i) => ({ job: i.input.job, allocations: i.allocations }))).toEqual(expected);
    expect(requests(h)[0]).toBe('GET /v1/nodes?prefix=bb');
  });

  it('reads the node list once for a datacenter and counts allocations on its nodes', async () => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();
    const dc1 = NODES.filter((n) => n.datacenter === 'dc1').map((n) => n.id ?? '');
    const onDc1 = ['search', 'train', 'web'].reduce((sum, job) => sum + placedOn(h, 'prod', job, dc1), 0);

    // Act
    const state = await planFleetStep(
      deps(h, planStore),
      payload({ datacenters: ['dc1'], namespace: 'prod', yes: true }),
    );

    // Assert
    expect(state.jobOptions.scope).toEqual({ datacenters: ['dc1'] });
    expect(state.plan.allocations).toBe(onDc1);
    expect(onDc1).toBeGreaterThan(0);
    expect(requests(h).filter((r) => r.startsWith('GET /v1/nodes'))).toHaveLength(1);
  });

  it.each([
    {
      name: 'a prefix several nodes share',
      nodes: ['aa1'],
      expected:
        /^Prefix matched multiple nodes\n\nID {8}DC {3}Name {6}Class {3}Drain {2}Eligibility {2}Status\naa110000 {2}dc1/,
    },
    { name: 'a prefix no node has', nodes: ['cc'], expected: /^No node\(s\) with prefix "cc" found$/ },
    {
      name: 'a one-character identifier',
      nodes: ['a'],
      expected: /^Identifier must contain at least two characters\.$/,
    },
  ])("refuses $name in Nomad's words, with nothing written", async ({ nodes, expected }) => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();

    // Act
    const planning = planFleetStep(deps(h, planStore), payload({ namespace: 'prod', nodes, yes: true }));

    // Assert
    await expect(planning).rejects.toThrow(InvalidInputError);
    await expect(planning).rejects.toThrow(expected);
    await expect(planStore.get(fleetKeys('weekly-1').items)).rejects.toThrow('has no object');
  });

  it('selects by node pool: only the jobs with allocations on its nodes', async () => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();
    const gpu = NODES.filter((n) => n.pool === 'gpu').map((n) => n.id ?? '');

    // Act
    const state = await planFleetStep(
      deps(h, planStore),
      payload({ nodePool: 'gpu', namespace: 'prod', yes: true }),
    );

    // Assert
    expect(state.jobOptions.scope).toEqual({ nodePool: 'gpu' });
    const items = (await planStore.get(fleetKeys('weekly-1').items)) as {
      input: { job: string };
      allocations: number;
    }[];
    expect(items.find((i) => i.input.job === 'train')?.allocations).toBe(2);
    expect(state.plan.allocations).toBe(
      ['search', 'train', 'web'].reduce((sum, id) => sum + placedOn(h, 'prod', id, gpu), 0),
    );
    expect(requests(h).slice(0, 2)).toEqual([
      'GET /v1/node/pool/gpu?',
      `GET /v1/nodes?per_page=${FLEET_PAGE_SIZE}`,
    ]);
  });

  it('refuses an unknown node pool, naming it', async () => {
    // Arrange
    const h = await start();

    // Act
    const planning = planFleetStep(deps(h), payload({ nodePool: 'tpu', namespace: 'prod', yes: true }));

    // Assert
    await expect(planning).rejects.toThrow(InvalidInputError);
    await expect(planning).rejects.toThrow('Unknown node pool "tpu": Nomad has no node pool of that name');
  });

  it("refuses a malformed filter with Nomad's 400 words, before any allocation is read", async () => {
    // Arrange
    const h = await start();
    const planStore = new MemoryPlanStore();

    // Act
    const planning = planFleetStep(
      deps(h, planStore),
      payload({ namespace: '*', filter: 'Meta.team ==', yes: true }),
    );

    // Assert
    await expect(planning).rejects.toThrow(InvalidInputError);
    await expect(planning).rejects.toThrow(/^Error querying jobs: Unexpected response code: 400 \(failed to/);
    expect(requests(h).every((r) => r.startsWith('GET /v1/jobs?'))).toBe(true);
    await expect(planStore.get(fleetKeys('weekly-1').items)).rejects.toThrow('has no object');
  });

  it('refuses a node selector in one line naming node:read when the token lacks it', async () => {
    // Arrange
    const h = await start(false);

    // Act
    const planning = planFleetStep(deps(h), payload({ namespace: 'prod', datacenters: ['dc1'], yes: true }));

    // Assert
    await expect(planning).rejects.toThrow(InvalidInputError);
    await expect(planning).rejects.toThrow(NODE_READ_DENIED);
  });

  it('refuses bad input before any request', async () => {
    // Arrange
    const h = await start();

    // Act
    const planning = planFleetStep(deps(h), payload({ namespace: 'prod', maxJobs: 0, yes: true }));

    // Assert
    await expect(planning).rejects.toThrow(InvalidInputError);
    await expect(planning).rejects.toThrow(
      'Invalid -max-jobs value "0": number value must be greater than zero',
    );
    expect(requests(h)).toEqual([]);
  });
});
