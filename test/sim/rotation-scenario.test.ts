// Scenario: the rotation scenario the fleet's "-uses-variable … -stale" must-show starts from. Six
// service jobs in two namespaces; three consume nomad/jobs/shared/db of namespace payments (one
// implicitly, one through nomadVar, one through nomadVarList on a prefix), one template comes from a
// file, one reads a Vault secret, one a variable whose path only starts like it. The rotation token
// lists the variables; the fleet token, without `list`, gets an empty listing and no error.
import type { Allocation, JobListStub } from '../../lib/nomad/types';
import { decodeScenario, ROTATION, type RunningSimulator, startSimulator } from '../../sim/index';
import { get, put } from './helpers/http';
import { TEST_TIME_SCALE } from './helpers/target';

interface Template {
  EmbeddedTmpl: string;
  SourcePath: string;
  DestPath: string;
  ChangeMode: string;
}
interface JobSpec {
  ID: string;
  TaskGroups: Array<{ Name: string; Tasks: Array<{ Name: string; Templates: Template[] | null }> }>;
}
interface VariableMeta {
  Namespace: string;
  Path: string;
  ModifyIndex: number;
  ModifyTime: number;
  Items?: unknown;
}

const { tokens } = ROTATION;
/** Lets `ms` simulated milliseconds pass. */
const sleepSimulated = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms * TEST_TIME_SCALE));
let sim: RunningSimulator;
beforeEach(async () => {
  sim = await startSimulator({ scenario: 'rotation', timeScale: TEST_TIME_SCALE });
});
afterEach(async () => sim.close());

/** The templates of the job's one task, as `GET /v1/job/:id` serves them to the rotation token. */
async function templatesOf(namespace: string, job: string): Promise<Template[] | null | undefined> {
  const spec = await get<JobSpec>(sim.address, `/v1/job/${job}?namespace=${namespace}`, tokens.rotation);
  return spec.json.TaskGroups[0]?.Tasks[0]?.Templates;
}

describe('simulator: the rotation scenario', () => {
  it('serves six running service jobs in two namespaces, two allocations each', async () => {
    // Act
    const jobs = await get<JobListStub[]>(sim.address, '/v1/jobs?namespace=*', tokens.rotation);

    // Assert
    expect(jobs.status).toBe(200);
    expect(jobs.json.map((j) => `${j.Namespace}/${j.ID}`).sort()).toEqual([
      'default/reports',
      'default/search',
      'payments/billing',
      'payments/checkout',
      'payments/ledger',
      'payments/shared',
    ]);
    expect(jobs.json.every((j) => j.Type === 'service' && j.Status === 'running')).toBe(true);
    for (const job of jobs.json) {
      const allocs = sim.control
        .state()
        .allocations({ jobId: job.ID, namespace: job.Namespace ?? 'default' });
      expect(allocs.filter((a: Allocation) => a.ClientStatus === 'running')).toHaveLength(
        ROTATION.allocationsPerJob,
      );
    }
  });

  it('shows each job’s templates as the scenario documents them', async () => {
    // Act
    const shared = await templatesOf('payments', 'shared');
    const checkout = await templatesOf('payments', 'checkout');
    const ledger = await templatesOf('payments', 'ledger');
    const billing = await templatesOf('payments', 'billing');
    const reports = await templatesOf('default', 'reports');
    const search = await templatesOf('default', 'search');
    const sharedSpec = await get<JobSpec>(sim.address, '/v1/job/shared?namespace=payments', tokens.rotation);

    // Assert: `shared` names the variable nowhere; its group makes it nomad/jobs/<job>/<group>.
    expect(shared).toBeNull();
    expect(`nomad/jobs/${sharedSpec.json.ID}/${sharedSpec.json.TaskGroups[0]?.Name}`).toBe(
      ROTATION.variable.path,
    );
    expect(checkout?.[0]?.EmbeddedTmpl).toContain('{{ with nomadVar "nomad/jobs/shared/db" }}');
    expect(ledger?.[0]?.EmbeddedTmpl).toContain('{{ range nomadVarList "nomad/jobs/shared" }}');
    expect(billing?.[0]?.EmbeddedTmpl).toContain('{{ with secret "kv/data/payments/db" }}');
    expect(reports?.[0]).toMatchObject({
      SourcePath: '/etc/nomad/templates/reports.env.tpl',
      EmbeddedTmpl: '',
    });
    expect(search?.[0]?.EmbeddedTmpl).toContain('nomadVar "nomad/jobs/shared/db-replica"');
    expect([checkout, ledger, billing, reports, search].map((t) => t?.[0]?.ChangeMode)).toEqual([
      'noop',
      'noop',
      'noop',
      'noop',
      'noop',
    ]);
  });

  it('lists the shared variable to the rotation token only, and to the fleet token as nothing, without an error', async () => {
    // Act
    const query = `/v1/vars?prefix=${ROTATION.variable.path}&namespace=${ROTATION.variable.namespace}`;
    const asRotation = await get<VariableMeta[]>(sim.address, query, tokens.rotation);
    const asFleet = await get<VariableMeta[]>(sim.address, query, tokens.fleet);
    const everywhere = await get<VariableMeta[]>(
      sim.address,
      '/v1/vars?prefix=nomad/jobs/shared&namespace=*',
      tokens.rotation,
    );

    // Assert
    expect(asRotation.status).toBe(200);
    expect(asRotation.json.map((v) => [v.Namespace, v.Path])).toEqual([['payments', 'nomad/jobs/shared/db']]);
    expect(asRotation.json[0]).not.toHaveProperty('Items');
    expect(asFleet.status).toBe(200);
    expect(asFleet.json).toEqual([]);
    expect(everywhere.json.map((v) => `${v.Namespace}/${v.Path}`)).toEqual([
      'default/nomad/jobs/shared/db-replica',
      'payments/nomad/jobs/shared/db',
    ]);
  });

  it('dates a rotation after every allocation’s start, and a consumer’s restart after the rotation', async () => {
    // Arrange
    const state = () => sim.control.state();
    const seeded = state().allocations({ namespace: 'payments' });
    await sleepSimulated(1_000);

    // Act: `nomad var put`, as the operator rotating the credential.
    const rotated = await put<VariableMeta>(
      sim.address,
      `/v1/var/${ROTATION.variable.path}?namespace=payments`,
      { Items: { user: 'app', password: 'rotation-2' } },
      tokens.management,
    );
    await sleepSimulated(1_000);
    const first = seeded.find((a) => a.JobID === 'checkout');
    const restarted = await put(
      sim.address,
      `/v1/client/allocation/${first?.ID}/restart`,
      {},
      tokens.rotation,
    );
    await sim.control.waitFor((s) => s.allocation(first?.ID ?? '')?.TaskStates?.['app']?.State === 'running');

    // Assert
    const rotatedMs = rotated.json.ModifyTime / 1_000_000;
    const startedMs = (a: Allocation | undefined) => Date.parse(a?.TaskStates?.['app']?.StartedAt ?? '');
    expect(rotated.status).toBe(200);
    expect(seeded.every((a) => startedMs(a) < rotatedMs)).toBe(true);
    expect(restarted.status).toBe(200);
    expect(startedMs(state().allocation(first?.ID ?? ''))).toBeGreaterThan(rotatedMs);
  });

  it('dates its variables an hour before the allocations started, even read as -stale rounds them', async () => {
    // Act
    const [variable] = (
      await get<VariableMeta[]>(
        sim.address,
        '/v1/vars?prefix=nomad/jobs/shared/db&namespace=payments',
        tokens.rotation,
      )
    ).json;
    const starts = sim.control
      .state()
      .allocations({ namespace: 'payments' })
      .map((a) => Date.parse(a.TaskStates?.['app']?.StartedAt ?? ''));

    // Assert: Nomad's ns past a double's precision, rounded up to ms, still before every start.
    const modifiedMs = Math.ceil((variable?.ModifyTime ?? Number.NaN) / 1e6);
    expect(starts).toHaveLength(8);
    expect(starts.every((start) => start - modifiedMs >= 3_600_000 - 1)).toBe(true);
  });
});

describe('scenario variables', () => {
  it.each([
    {
      field: 'namespace',
      variable: { namespace: 'search', path: 'a', items: { k: 'v' } },
      error:
        'Invalid scenario field "variables[0].namespace": "search" (expected "default" or one of the scenario\'s namespaces)',
    },
    {
      field: 'path',
      variable: { path: 'nomad/secrets', items: { k: 'v' } },
      error:
        'Invalid scenario field "variables[0].path": "nomad/secrets" (only paths at "nomad/jobs" or "nomad/job-templates" and below are valid paths under the top-level "nomad" directory)',
    },
    {
      field: 'items',
      variable: { path: 'a', items: {} },
      error: 'Invalid scenario field "variables[0].items": {} (expected a non-empty object of strings)',
    },
    {
      field: 'age',
      variable: { path: 'a', items: { k: 'v' }, age: '-1h' },
      error:
        'Invalid scenario field "variables[0].age": "-1h" (expected a Go duration that is not negative, e.g. "1h")',
    },
  ])('refuses a bad $field, naming the field and quoting the value', ({ variable, error }) => {
    // Act
    const decode = () => decodeScenario({ nodes: [], jobs: [], variables: [variable] });

    // Assert
    expect(decode).toThrow(error);
  });
});
