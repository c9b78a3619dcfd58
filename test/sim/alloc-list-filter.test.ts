// Scenario: `GET /v1/allocations` filtered to one job without task states, the read the batch
// watch makes on a large job: the same stubs as the job's own list (every field but the task
// states), the same blocking index, any other filter evaluated as Nomad's go-bexpr does, and the
// filters Nomad refuses refused with its words. The tests written with plain `it` only use the Nomad API, so they also run
// against a real agent with NOMAD_E2E_ADDR set (that is how the shape was checked).
import type { AllocListStub } from '../../lib/nomad/types';
import { nodes, seededRandom, sleepJob } from './helpers/fixtures';
import { call, eventually, get, put } from './helpers/http';
import { openTarget, type Target } from './helpers/target';

const filtered = (id: string, extra = '') =>
  `/v1/allocations?filter=${encodeURIComponent(`JobID == "${id}"`)}${extra}`;

describe('simulator: the allocations list filtered to a job', () => {
  let target: Target;
  const run = `${Date.now()}`;
  const watched = `alloc-filter-${run}`;
  const other = `alloc-filter-other-${run}`;

  beforeAll(async () => {
    target = await openTarget({ random: seededRandom(5) });
    target.control?.seed({ nodes: nodes(1), jobs: [] });
    for (const [id, count] of [
      [watched, 2],
      [other, 1],
    ] as const) {
      await put(target.address, '/v1/jobs', { Job: sleepJob(id, count) });
      await eventually(async () => {
        const allocs = (await get<AllocListStub[]>(target.address, `/v1/job/${id}/allocations`)).json;
        return allocs.filter((a) => a.ClientStatus === 'running').length === count ? allocs : undefined;
      });
    }
  });

  afterAll(async () => {
    // A real agent keeps what the tests registered.
    for (const id of [watched, other])
      await call(target.address, `/v1/job/${id}?purge=true`, { method: 'DELETE' });
    await target.close();
  });

  it('answers the job’s stubs without task states, field for field as the job’s own list', async () => {
    // Act
    const own = await get<AllocListStub[]>(target.address, `/v1/job/${watched}/allocations?all=true`);
    const list = await get<AllocListStub[]>(target.address, filtered(watched, '&task_states=false'));

    // Assert
    expect(list.status).toBe(200);
    const byId = (stubs: AllocListStub[]) => [...stubs].sort((a, b) => a.ID.localeCompare(b.ID));
    const withoutTaskStates = byId(own.json).map((stub) => ({ ...stub, TaskStates: null }));
    expect(byId(list.json)).toEqual(withoutTaskStates);
    expect(own.json.every((stub) => stub.TaskStates !== null && stub.TaskStates !== undefined)).toBe(true);
    expect(list.headers.get('X-Nomad-Index')).toBe(own.headers.get('X-Nomad-Index'));
  });

  it('keeps the task states without task_states=false, and the job’s own list ignores the parameter', async () => {
    // Act
    const list = await get<AllocListStub[]>(target.address, filtered(watched));
    const own = await get<AllocListStub[]>(
      target.address,
      `/v1/job/${watched}/allocations?task_states=false`,
    );

    // Assert
    expect(list.json.map((stub) => stub.JobID)).toEqual([watched, watched]);
    expect(list.json.every((stub) => stub.TaskStates?.['sleep'] !== undefined)).toBe(true);
    expect(own.json.every((stub) => stub.TaskStates?.['sleep'] !== undefined)).toBe(true);
  });

  it('refuses a task_states that is not a bool with Nomad’s text', async () => {
    // Act
    const answer = await get(target.address, filtered(watched, '&task_states=maybe'));

    // Assert
    expect(answer.status).toBe(500);
    expect(answer.text).toBe(
      'Failed to parse value of "task_states" (maybe) as a bool: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });

  it('refuses a filter it cannot read with a 400 in Nomad’s words', async () => {
    // Act
    const answer = await get(target.address, `/v1/allocations?filter=${encodeURIComponent('JobID ==')}`);

    // Assert
    expect(answer.status).toBe(400);
    expect(answer.text).toBe(
      'failed to create result paginator: failed to read filter expression: 1:9 (8): no match found, expected: "-", "0", "[", "\\"", "`", [ \\t\\r\\n], [1-9] or [a-zA-Z]',
    );
  });

  it('evaluates any other filter on the whole allocation, its job included', async () => {
    // Act: `contains` on the job ID, and a field only the full allocation has (its job's type).
    const contains = await get<AllocListStub[]>(
      target.address,
      `/v1/allocations?filter=${encodeURIComponent(`JobID contains "alloc-filter-other-${run}"`)}`,
    );
    const byJob = await get<AllocListStub[]>(
      target.address,
      `/v1/allocations?filter=${encodeURIComponent(`Job.ID == "${watched}" and Job.Type == "service"`)}`,
    );

    // Assert
    expect(contains.status).toBe(200);
    expect(contains.json.map((stub) => stub.JobID)).toEqual([other]);
    expect(byJob.json.map((stub) => stub.JobID)).toEqual([watched, watched]);
  });

  it('pages in create-index order with <CreateIndex>.<ID> tokens, the filter applied before the page', async () => {
    // Arrange
    const mine = `/v1/allocations?task_states=false&filter=${encodeURIComponent(`JobID contains "-${run}"`)}`;
    const all = (await get<AllocListStub[]>(target.address, mine)).json;

    // Act
    const first = await get<AllocListStub[]>(target.address, `${mine}&per_page=2`);
    const token = first.headers.get('X-Nomad-NextToken') ?? '';
    const second = await get<AllocListStub[]>(target.address, `${mine}&per_page=2&next_token=${token}`);

    // Assert
    expect(all).toHaveLength(3);
    const order = [...all].sort(
      (a, b) => (a.CreateIndex ?? 0) - (b.CreateIndex ?? 0) || (a.ID < b.ID ? -1 : 1),
    );
    expect(all.map((a) => a.ID)).toEqual(order.map((a) => a.ID));
    expect(first.json.map((a) => a.ID)).toEqual(order.slice(0, 2).map((a) => a.ID));
    expect(token).toBe(`${order[2]?.CreateIndex}.${order[2]?.ID}`);
    expect(second.json.map((a) => a.ID)).toEqual([order[2]?.ID]);
    expect(second.headers.get('X-Nomad-NextToken')).toBeNull();
  });

  it('refuses a field the allocation does not have with Nomad’s 400', async () => {
    // Act
    const answer = await get(target.address, `/v1/allocations?filter=${encodeURIComponent('Jobid == "x"')}`);

    // Assert
    expect(answer.status).toBe(400);
    expect(answer.text).toBe(
      'failed to read result page: error finding value in datum: /Jobid at part 0: couldn\'t find key: struct field with name "Jobid"',
    );
  });
});
